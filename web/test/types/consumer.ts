// A TypeScript consumer of the package's .d.ts files: `tsc --noEmit` must
// accept it (types.test.mjs), so the published types match the API the
// tests use in JavaScript.
import type { Bone, Skeleton } from 'three';

import { loadTailrig, MAX_CAPSULES, TailrigError, type Capsule, type TailrigParams } from '../../src/tailrig.js';
import { rigFromSkeleton, TailrigThreeAdapter } from '../../src/three_adapter.js';
import { TailrigThreeBatchAdapter } from '../../src/three_batch_adapter.js';

export async function drive(skeleton: Skeleton, hips: Bone): Promise<number> {
  const tailrig = await loadTailrig({ wasmUrl: new URL('tailrig_solver.wasm', 'http://localhost/') });
  const params: TailrigParams = tailrig.defaultParams();
  const rig = rigFromSkeleton(skeleton);
  const chain = tailrig.createChain({ ...rig, hips: rig.bones.indexOf(hips), params: { gravity: params.gravity } });
  const capsule: Capsule = { a: [0, 0, 0], b: [0, -0.4, 0], radiusA: 0.06, radiusB: 0.04 };
  try {
    chain.step(1 / 60, hips.matrixWorld.elements, [capsule]);
  } catch (e) {
    if (e instanceof TailrigError) return e.code;
  }
  const rotations: Float64Array = chain.localRotations();
  const adapter = new TailrigThreeAdapter(tailrig, skeleton, { colliders: 'none', colliderMargin: 0.05 });
  adapter.update(1 / 60);
  const hipsAtLastStep: Float64Array = adapter.lastFrame.hips;
  chain.dispose();
  adapter.dispose();
  return rotations.length + hipsAtLastStep.length + MAX_CAPSULES;
}

export async function driveCrowd(skeletons: Skeleton[]): Promise<number> {
  const tailrig = await loadTailrig();
  const crowd = new TailrigThreeBatchAdapter(tailrig, skeletons, { params: { gravity: 9.81 } });
  crowd.update(1 / 60);
  crowd.reset();
  const hips: Float64Array = crowd.batch.hipsWorld();
  crowd.batch.step(1 / 60);
  const rotations: Float32Array = crowd.batch.localRotations();
  const kernel: string = crowd.batch.isa;
  crowd.dispose();
  return rotations.length + hips.length + kernel.length + crowd.characters[0].tail.length;
}
