// three.js adapter for many characters of one rig: every character's
// Tail_* bones driven by one batch (tailrig_batch.h; TailBatch), 4 tails
// per SIMD128 instruction, instead of one chain per character
// (three_adapter.js).
//
//   const crowd = new TailrigThreeBatchAdapter(tailrig, skeletons);
//   per frame: mixers.update(dt); crowd.update(dt);
//
// The skeletons must be copies of one rig (same bones, names and inverse
// binds, e.g. SkeletonUtils.clone of one character): the first one's rig
// builds the chain, and every skeleton's bones are found by the same
// depth-first order. No colliders (the batch C API takes hips only).
import { rigFromSkeleton } from './three_adapter.js';

const kTailName = /(^|[:_])Tail_1$/;

export class TailrigThreeBatchAdapter {
  /**
   * skeletons: three.js Skeletons of one rig. options: params (partial
   * solver params).
   */
  constructor(tailrig, skeletons, options = {}) {
    if (!skeletons.length) throw new Error('no skeletons');
    const rig = rigFromSkeleton(skeletons[0]);
    const tail1 = rig.bones.findIndex((b) => kTailName.test(b.name));
    if (tail1 < 0) throw new Error('the skeleton has no Tail_1 bone');
    const hipsIndex = rig.parents[tail1];
    if (hipsIndex < 0) throw new Error('Tail_1 has no parent bone to hang from');
    const chain = tailrig.createChain({ ...rig, hips: hipsIndex, params: options.params ?? {} });
    try {
      this.batch = chain.createBatch(skeletons.length);
      const joints = Array.from(chain.boneJoints);
      this.characters = skeletons.map((skeleton, c) => {
        const bones = c === 0 ? rig.bones : rigFromSkeleton(skeleton).bones;
        if (bones.length !== rig.bones.length || bones.some((b, j) => b.name !== rig.bones[j].name)) {
          throw new Error(`skeleton ${c} is not a copy of the first one's rig`);
        }
        return { hips: bones[hipsIndex], tail: joints.map((j) => bones[j]) };
      });
    } finally {
      chain.dispose();
    }
    this.boneCount = this.batch.boneCount;
    this.updatedAncestors = new Set(); // readHips(): ancestors already updated
    this.pendingAncestors = [];
    this.rotations = new Float32Array(4 * this.boneCount * skeletons.length);
  }

  /** Steps every character's tail by dt seconds to its body's current pose. */
  update(dt) {
    this.readHips();
    this.batch.step(dt);
    this.writeTails();
  }

  /** Puts every tail at rest for its body's current pose (a cut). */
  reset() {
    this.characters.forEach((ch, c) => {
      ch.hips.updateWorldMatrix(true, false);
      this.batch.reset(c, ch.hips.matrixWorld.elements);
    });
    this.writeTails();
  }

  dispose() {
    this.batch.dispose();
  }

  // Every hips' world matrix into the batch's input, as
  // hips.updateWorldMatrix(true, false) computes it, but each ancestor's
  // world matrix once per call, however many characters hang below it (a
  // crowd shares at least the scene): the same products of the same
  // matrices, so the same numbers.
  readHips() {
    const hips = this.batch.hipsWorld(); // a fresh view: the wasm memory may have grown
    const characters = this.characters;
    const updated = this.updatedAncestors;
    const pending = this.pendingAncestors;
    updated.clear();
    for (let c = 0; c < characters.length; ++c) {
      const h = characters[c].hips;
      let n = 0;
      for (let a = h.parent; a !== null && !updated.has(a); a = a.parent) pending[n++] = a;
      while (n > 0) {
        const a = pending[--n];
        a.updateWorldMatrix(false, false);
        updated.add(a);
      }
      h.updateWorldMatrix(false, false);
      const e = h.matrixWorld.elements;
      const at = 16 * c;
      for (let k = 0; k < 16; ++k) hips[at + k] = e[k];
    }
  }

  writeTails() {
    const r = this.batch.localRotations(this.rotations);
    const n = this.boneCount;
    const characters = this.characters;
    for (let c = 0; c < characters.length; ++c) {
      const tail = characters[c].tail;
      const first = 4 * n * c;
      for (let i = 0; i < n; ++i) {
        const q = first + 4 * i;
        tail[i].quaternion.set(r[q], r[q + 1], r[q + 2], r[q + 3]);
      }
      tail[0].updateMatrixWorld(true);
    }
  }
}
