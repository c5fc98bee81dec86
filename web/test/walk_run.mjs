// The agreement run: a hips + legs + five-bone tail rig (0.8 m tail, bind
// rotations twisted per bone so local rotations are not world ones) and 600
// frames of a walking hips, the same shape as the C API's own test
// (solver/tests/c_api_test.c): forward 1.2 m/s, sway, bob, yaw, mixed frame
// times, a teleport at frame 250, dt 0 at 300, a reset at 400.

/** Column-major rigid transform: rotation about unit axis by angle, then t. */
export function rigid(angle, axis, t) {
  const len = Math.hypot(...axis);
  const [x, y, z] = axis.map((v) => v / len);
  const c = Math.cos(angle), s = Math.sin(angle), k = 1 - c;
  return [
    c + x * x * k, y * x * k + z * s, z * x * k - y * s, 0,
    x * y * k - z * s, c + y * y * k, z * y * k + x * s, 0,
    x * z * k + y * s, y * z * k - x * s, c + z * z * k, 0,
    t[0], t[1], t[2], 1,
  ];
}

/** Inverse of a rigid column-major transform. */
export function rigidInverse(m) {
  const out = new Array(16).fill(0);
  for (let r = 0; r < 3; ++r) for (let c = 0; c < 3; ++c) out[c * 4 + r] = m[r * 4 + c];
  for (let r = 0; r < 3; ++r) out[12 + r] = -(out[r] * m[12] + out[4 + r] * m[13] + out[8 + r] * m[14]);
  out[15] = 1;
  return out;
}

export function walkRig() {
  const names = ['Root', 'Hips', 'Spine', 'LeftUpLeg', 'LeftLeg', 'RightUpLeg', 'RightLeg',
    'Tail_1', 'Tail_2', 'Tail_3', 'Tail_4', 'Tail_5', 'Tail_End'];
  const parents = [-1, 0, 1, 1, 3, 1, 5, 1, 7, 8, 9, 10, 11];
  const body = [[0, 0, 0], [0, 1, 0], [0, 1.2, 0], [0.1, 0.95, 0], [0.1, 0.5, 0], [-0.1, 0.95, 0], [-0.1, 0.5, 0]];
  const inverseBinds = [];
  for (const p of body) inverseBinds.push(...rigidInverse(rigid(0, [0, 1, 0], p)));
  const p = [0, 0.95, -0.1];
  const dirLen = Math.sqrt(0.36 + 1.0);
  for (let i = 0; i <= 5; ++i) {
    inverseBinds.push(...rigidInverse(rigid(0.7 * (i + 1), [0.3, 1.0, 0.2], p)));
    p[1] += (-0.6 / dirLen) * (0.8 / 5);
    p[2] += (-1.0 / dirLen) * (0.8 / 5);
  }
  return { names, parents, inverseBinds, hips: 1 };
}

/** The hips world matrix at time t (a walk with sway, bob and yaw). */
function walkHips(t, teleported) {
  const yaw = 0.35 * Math.sin(1.3 * t);
  const x = 0.08 * Math.sin(2 * Math.PI * 0.9 * t) + (teleported ? 5 : 0);
  const y = 1.0 + 0.04 * Math.sin(2 * Math.PI * 1.8 * t);
  const z = 1.2 * t;
  return rigid(yaw, [0.1, 1, 0.05], [x, y, z]);
}

// A bar behind the hips, across the tail's hang, swinging like a leg: in
// the hips' space a..b, moved by the hips every frame.
function barCapsule(hips, t) {
  const swing = 0.12 * Math.sin(2 * Math.PI * 0.9 * t);
  const local = [[-0.3, -0.28, -0.32 + swing], [0.3, -0.2, -0.36 + swing]];
  const world = local.map(([x, y, z]) => [0, 1, 2].map((r) => hips[r] * x + hips[4 + r] * y + hips[8 + r] * z + hips[12 + r]));
  return [...world[0], ...world[1], 0.07, 0.05];
}

/** 600 frames; withCapsule adds the swinging bar collider. */
export function walkRun({ withCapsule = false, frames = 600 } = {}) {
  const dts = [1 / 60, 1 / 30, 1 / 144, 0.05];
  const out = [];
  let t = 0;
  for (let f = 0; f < frames; ++f) {
    const dt = f === 300 ? 0 : dts[Math.floor(f / 7) % 4];
    t += dt;
    const hips = walkHips(t, f >= 250);
    out.push({ op: f === 400 ? 'r' : 's', dt, hips, capsules: withCapsule ? barCapsule(hips, t) : [] });
  }
  return { rig: walkRig(), colliderMargin: withCapsule ? 0.04 : -1, capsuleCount: withCapsule ? 1 : 0, frames: out };
}
