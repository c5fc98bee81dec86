// three.js adapter: drives the Tail_* bones of a skinned character (as
// `harness fix` writes them) with the WebAssembly solver.
//
//   const adapter = TailrigThreeAdapter.fromObject(tailrig, gltf.scene);
//   per frame: mixer.update(dt); adapter.update(dt);
//
// It reads the hips' world matrix (the bone the tail hangs from) after the
// animation has posed the body, steps the chain, and writes each tail bone's
// quaternion (the glTF node.rotation the C API gives), then refreshes the
// tail's world matrices so a renderer or a reader sees this frame's tail.
// Leg colliders that `fix` stored on the joints (node extras
// tailrig_collider, which GLTFLoader puts in bone.userData) are posed with
// their bones every frame and given to the solver.
import { Vector3 } from 'three';

// Scratch for posing colliders: update() allocates nothing (a per-frame
// allocation per chain is garbage collection per frame with 1,000 chains).
const scratchA = new Vector3();
const scratchB = new Vector3();
const scratchScale = new Vector3();

const kTailName = /(^|[:_])Tail_1$/;

export class TailrigThreeAdapter {
  /** The first SkinnedMesh under `object` whose skeleton has a Tail_1 bone. */
  static fromObject(tailrig, object, options = {}) {
    let found = null;
    object.traverse((o) => {
      if (!found && o.isSkinnedMesh && o.skeleton.bones.some((b) => kTailName.test(b.name))) found = o;
    });
    if (!found) throw new Error('no SkinnedMesh with Tail_* bones under this object');
    return new TailrigThreeAdapter(tailrig, found.skeleton, options);
  }

  /**
   * skeleton: a three.js Skeleton (SkinnedMesh.skeleton). options: params
   * (partial solver params), hips (a Bone; default: Tail_1's parent),
   * colliders: 'stored' (default: the bones' userData.tailrig_collider),
   * 'none', or [{bone, a, b, radiusA, radiusB}] in each bone's own space,
   * colliderMargin (metres; default the solver's).
   */
  constructor(tailrig, skeleton, options = {}) {
    const rig = rigFromSkeleton(skeleton);
    const tail1 = rig.bones.find((b) => kTailName.test(b.name));
    if (!tail1) throw new Error('the skeleton has no Tail_1 bone');
    this.hips = options.hips ?? tail1.parent;
    const hipsIndex = rig.bones.indexOf(this.hips);
    if (hipsIndex < 0) throw new Error('the hips are not a bone of this skeleton');
    this.chain = tailrig.createChain({ ...rig, hips: hipsIndex, params: options.params ?? {} });
    if (options.colliderMargin !== undefined) this.chain.setColliderParams({ margin: options.colliderMargin });
    this.tailBones = Array.from(this.chain.boneJoints, (j) => rig.bones[j]);
    this.colliders = collidersFrom(skeleton, options.colliders ?? 'stored');
    this.rotations = new Float64Array(4 * this.chain.boneCount);
    this.capsules = new Float64Array(8 * this.colliders.length);
    /** What the latest update gave the solver: dt, hips (16), capsules (8 each); overwritten by each update. */
    this.lastFrame = { dt: 0, hips: new Float64Array(16), capsules: new Float64Array(8 * this.colliders.length) };
  }

  /** Steps the tail by dt seconds to the body's current pose. */
  update(dt) {
    this.hips.updateWorldMatrix(true, false);
    const hips = this.hips.matrixWorld.elements;
    if (this.colliders.length) this.poseColliders();
    this.chain.step(dt, hips, this.colliders.length ? this.capsules : undefined);
    this.lastFrame.dt = dt;
    this.lastFrame.hips.set(hips);
    this.lastFrame.capsules.set(this.capsules);
    this.writeTail();
  }

  /** Puts the tail at rest for the body's current pose (a cut, a teleport). */
  reset() {
    this.hips.updateWorldMatrix(true, false);
    this.chain.reset(this.hips.matrixWorld.elements);
    this.writeTail();
  }

  dispose() {
    this.chain.dispose();
  }

  writeTail() {
    const r = this.chain.localRotations(this.rotations);
    const bones = this.tailBones;
    for (let i = 0; i < bones.length; ++i) bones[i].quaternion.set(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
    bones[0].updateMatrixWorld(true);
  }

  poseColliders() {
    const a = scratchA, b = scratchB, scale = scratchScale;
    this.colliders.forEach((c, i) => {
      c.bone.updateWorldMatrix(true, false);
      const m = c.bone.matrixWorld;
      a.fromArray(c.a).applyMatrix4(m);
      b.fromArray(c.b).applyMatrix4(m);
      scale.setFromMatrixScale(m);
      const s = Math.max(scale.x, scale.y, scale.z);
      this.capsules.set([a.x, a.y, a.z, b.x, b.y, b.z, c.radiusA * s, c.radiusB * s], 8 * i);
    });
  }
}

/**
 * The C API wants parents before children (parents[i] < i); a glTF skin's
 * joint order need not be that. Bones in depth-first order from the roots.
 */
export function rigFromSkeleton(skeleton) {
  const inSkeleton = new Set(skeleton.bones);
  const order = [];
  const visit = (bone) => {
    order.push(bone);
    for (const child of bone.children) if (inSkeleton.has(child)) visit(child);
  };
  for (const bone of skeleton.bones) if (!inSkeleton.has(bone.parent)) visit(bone);
  const index = new Map(order.map((b, i) => [b, i]));
  const inverseBinds = new Float64Array(16 * order.length);
  order.forEach((bone, i) => inverseBinds.set(skeleton.boneInverses[skeleton.bones.indexOf(bone)].elements, 16 * i));
  return {
    bones: order,
    names: order.map((b) => b.name),
    parents: order.map((b) => index.get(b.parent) ?? -1),
    inverseBinds,
  };
}

function collidersFrom(skeleton, colliders) {
  if (colliders === 'none') return [];
  if (Array.isArray(colliders)) return colliders;
  const stored = [];
  for (const bone of skeleton.bones) {
    const c = bone.userData?.tailrig_collider;
    // What tailrig reads: version 1 capsules; anything else is left alone.
    if (c && c.version === 1 && c.shape === 'capsule') {
      stored.push({ bone, a: c.a, b: c.b, radiusA: c.radius_a, radiusB: c.radius_b });
    }
  }
  return stored.slice(0, 16);
}
