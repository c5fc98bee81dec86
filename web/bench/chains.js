// The benchmark's chains: 4-bone tails (Tail_1..Tail_4 + Tail_End, 0.8 m,
// hanging back and down from a hips at 1 m) under their own hips, many
// side by side, and the walk that moves every hips each frame.
import { Bone, Object3D, Skeleton } from 'three';

export const kBones = 4;
const kLength = 0.8;

/** One chain: { hips, bones: [Tail_1..Tail_4, Tail_End], skeleton }. */
export function makeChain(root, x) {
  const hips = new Bone();
  hips.name = 'Hips';
  hips.position.set(x, 1, 0);
  root.add(hips);
  const bones = [];
  let parent = hips;
  for (let i = 0; i <= kBones; ++i) {
    const b = new Bone();
    b.name = i < kBones ? `Tail_${i + 1}` : 'Tail_End';
    // The first link starts at the hips' back; each link goes back and down.
    if (i === 0) b.position.set(0, -0.05, -0.1);
    else b.position.set(0, -0.6 * (kLength / kBones), -0.8 * (kLength / kBones));
    parent.add(b);
    bones.push(b);
    parent = b;
  }
  hips.updateMatrixWorld(true); // this chain only: the root is the identity
  return { hips, bones, skeleton: new Skeleton([hips, ...bones]) };
}

/** n chains under a new root. */
export function makeChains(n) {
  const root = new Object3D();
  const chains = Array.from({ length: n }, (_, i) => makeChain(root, 2 * (i % 40) - 40));
  return { root, chains };
}

/** Every hips to its pose at time t: a walk in place with sway, bob and yaw. */
export function poseHips(chains, t) {
  for (let i = 0; i < chains.length; ++i) {
    const phase = 0.37 * i;
    const hips = chains[i].hips;
    hips.position.y = 1 + 0.04 * Math.sin(2 * Math.PI * 1.8 * t + phase);
    hips.position.z = 0.08 * Math.sin(2 * Math.PI * 0.9 * t + phase);
    hips.rotation.set(0.05 * Math.sin(2 * Math.PI * 1.8 * t + phase), 0.35 * Math.sin(1.3 * t + phase), 0);
  }
}
