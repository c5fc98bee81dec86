// The C API's statuses as JavaScript exceptions, shared by tailrig.js and
// tail_batch.js.
import { STATUS_NAMES } from './layout.js';

/** A status other than TAILRIG_OK, with the C API's one-line message. */
export class TailrigError extends Error {
  constructor(code, message) {
    super(`${STATUS_NAMES[code] ?? code}: ${message}`);
    this.name = 'TailrigError';
    this.code = code;
    this.status = STATUS_NAMES[code] ?? 'UNKNOWN';
  }
}

/** Throws the latest error of the C API when `status` is not TAILRIG_OK. */
export function check(wasm, status) {
  if (status !== 0) throw new TailrigError(status, wasm.UTF8ToString(wasm._tailrig_last_error()));
}
