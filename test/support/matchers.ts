// vitest's asymmetric matchers, typed `unknown` instead of `any`: each stands
// for a value inside an expected object, and `any` would switch off the type
// checks of everything it is assigned to.
import { expect } from "vitest";

export const anyNumber: unknown = expect.any(Number);
export const anyString: unknown = expect.any(String);
export const anything: unknown = expect.anything();
export const stringContaining = (text: string): unknown => expect.stringContaining(text);
export const stringMatching = (pattern: RegExp): unknown => expect.stringMatching(pattern);
export const objectContaining = (shape: Record<string, unknown>): unknown => expect.objectContaining(shape);
export const arrayContaining = (items: unknown[]): unknown => expect.arrayContaining(items);
