// The compaction core: pure projection, planning, bounds, rules and anchors.
export * from "./activation.js";
export * from "./anchors.js";
export * from "./bounds.js";
export * from "./errors.js";
export * from "./estimate.js";
export * from "./loss.js";
export * from "./plan.js";
export * from "./policy.js";
export * from "./positions.js";
export * from "./project.js";
export {
  SUMMARY_REQUEST,
  SUMMARY_SHOWN_ABOVE,
  summaryRequest,
  type FailedQuestion,
  type ProjectionSink,
  type ProjectionStats,
  type StreamShape,
  type TurnOrigin,
} from "./projector.js";
export * from "./reasoning-report.js";
export * from "./recall.js";
export * from "./tool-output.js";
export * from "./spec.js";
export * from "./validate.js";
export * from "./assistant.js";
export * from "./auto-plans.js";
export * from "./record.js";
export * from "./summary-input.js";
