// Owns the errors configuration raises.
import { JpError } from "../errors.js";

export class ConfigError extends JpError {
  constructor(message: string, hint?: string) {
    super("config.invalid", message, { hint, exitCode: 2 });
  }
}
