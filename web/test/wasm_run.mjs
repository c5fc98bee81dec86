// A run (see native_run.mjs) through the wasm package: the same frames,
// the same read-out as run_c_api. No node modules: pages import it too.

/** The same run through the wasm package: the same frames, the same read-out. */
export function runWasm(tailrig, run) {
  const chain = tailrig.createChain(run.rig);
  try {
    if (run.colliderMargin >= 0) chain.setColliderParams({ margin: run.colliderMargin });
    const frames = run.frames.map((f) => {
      if (f.op === 'r') chain.reset(f.hips);
      else chain.step(f.dt, f.hips, run.capsuleCount > 0 ? f.capsules : undefined);
      return { positions: chain.worldPositions(), rotations: chain.localRotations() };
    });
    return { bones: chain.boneCount, frames };
  } finally {
    chain.dispose();
  }
}
