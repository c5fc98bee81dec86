// Byte offsets of the C API's structs in wasm32 memory (tailrig_solver.h).
// web/wasm/layout_check.cpp asserts each one when the wasm is built, so a
// change to the header fails the build instead of shifting these silently.

/** tailrig_params: [field name, byte offset, 'f64' | 'i32'] in header order. */
export const PARAMS_FIELDS = [
  ['rootFrequencyHz', 0, 'f64'],
  ['tipFrequencyHz', 8, 'f64'],
  ['dampingRatio', 16, 'f64'],
  ['gravity', 24, 'f64'],
  ['carryDeg', 32, 'f64'],
  ['restCurve', 40, 'f64'],
  ['forwardAxis', 48, 'vec3'],
  ['lateralAxis', 72, 'vec3'],
  ['metersPerUnit', 96, 'f64'],
  ['bendCouplingRate', 104, 'f64'],
  ['bendLimitDeg', 112, 'f64'],
  ['forwardPlane', 120, 'bool'],
  ['floorEnabled', 124, 'bool'],
  ['floorHeight', 128, 'f64'],
  ['floorClearance', 136, 'f64'],
  ['contactDamping', 144, 'f64'],
  ['internalStep', 152, 'f64'],
  ['maxSubsteps', 160, 'i32'],
  ['resetSettleTime', 168, 'f64'],
  ['teleportDistance', 176, 'f64'],
  ['teleportAngleDeg', 184, 'f64'],
];
export const PARAMS_SIZE = 192;

export const FRAME_INPUT = { version: 0, capsuleCount: 4, hipsWorld: 8, capsules: 136, size: 144 };
export const FRAME_INPUT_VERSION = 1;
export const CAPSULE_SIZE = 64; // a[3], b[3], radius_a, radius_b: 8 doubles
export const MAX_CAPSULES = 16;

export const COLLIDER_PARAMS = { version: 0, reserved: 4, margin: 8, friction: 16, size: 24 };
export const COLLIDER_PARAMS_VERSION = 1;

/** tailrig_status codes by value. */
export const STATUS_NAMES = [
  'OK',
  'INVALID_ARGUMENT',
  'NON_FINITE',
  'NO_TAIL',
  'BROKEN_CHAIN',
  'OUT_OF_MEMORY',
  'INTERNAL',
];
