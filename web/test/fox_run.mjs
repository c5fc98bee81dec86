// The three.js adapter on a fixed character: plays a clip with three's
// AnimationMixer, steps the adapter after it every frame, and records what
// the adapter gave the solver (as a run for run_c_api) and where three.js
// then has the tail bones. Node and the browser page both run this.
import { AnimationMixer, Vector3 } from 'three';

import { rigFromSkeleton, TailrigThreeAdapter } from '../src/three_adapter.js';

/** gltf: GLTFLoader's result. Returns { run, threePositions, boneNames }. */
export function runFixedCharacter(tailrig, gltf, { clip = 'walk', frames = 600, dts = [1 / 60] } = {}) {
  const scene = gltf.scene;
  scene.updateMatrixWorld(true);
  const adapter = TailrigThreeAdapter.fromObject(tailrig, scene);
  const mixer = new AnimationMixer(scene);
  const action = gltf.animations.find((a) => a.name === clip);
  if (!action) throw new Error(`no clip '${clip}'`);
  mixer.clipAction(action).play();
  let skeleton = null;
  scene.traverse((o) => { if (!skeleton && o.isSkinnedMesh && o.skeleton.bones.includes(adapter.hips)) skeleton = o.skeleton; });
  const rig = rigFromSkeleton(skeleton);
  const out = [];
  const threePositions = [];
  const p = new Vector3();
  for (let f = 0; f < frames; ++f) {
    const dt = dts[f % dts.length];
    mixer.update(dt);
    adapter.update(dt);
    const input = adapter.lastFrame;
    out.push({ op: 's', dt, hips: Array.from(input.hips), capsules: Array.from(input.capsules) });
    const positions = new Float64Array(3 * adapter.tailBones.length);
    adapter.tailBones.forEach((bone, i) => positions.set(bone.getWorldPosition(p).toArray(), 3 * i));
    threePositions.push(positions);
  }
  const run = {
    rig: { names: rig.names, parents: rig.parents, inverseBinds: rig.inverseBinds, hips: rig.bones.indexOf(adapter.hips) },
    colliderMargin: -1,
    capsuleCount: adapter.colliders.length,
    frames: out,
  };
  const boneNames = adapter.tailBones.map((b) => b.name);
  adapter.dispose();
  return { run, threePositions, boneNames };
}

/**
 * Range (max - min) over the frames of the tail tip's position in the hips'
 * own frame, per axis: a tail that only followed the hips rigidly gives 0.
 */
export function tipSwing(result) {
  const n = result.boneNames.length;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  result.threePositions.forEach((pos, f) => {
    const h = result.run.frames[f].hips;
    const d = [0, 1, 2].map((k) => pos[3 * (n - 1) + k] - h[12 + k]);
    // Rigid hips: the inverse rotation is the transpose (columns of h).
    const local = [0, 1, 2].map((c) => {
      const col = [h[4 * c], h[4 * c + 1], h[4 * c + 2]];
      return (col[0] * d[0] + col[1] * d[1] + col[2] * d[2]) / Math.hypot(...col);
    });
    for (let k = 0; k < 3; ++k) {
      lo[k] = Math.min(lo[k], local[k]);
      hi[k] = Math.max(hi[k], local[k]);
    }
  });
  return hi.map((v, k) => v - lo[k]);
}
