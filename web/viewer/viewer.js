// The report viewer's scene: the character before fix (the rigger's
// weights), after fix with the baked tail, and after fix with the tail live
// from the wasm solver, side by side; per-edge stretch as colour; a time
// slider over the clip. Hooks for the browser test: window.viewerReady,
// window.viewerState, window.viewerSetTime(t).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

import { loadTailrig } from '../src/tailrig.js';
import { TailrigThreeAdapter } from '../src/three_adapter.js';
import { EdgeStretchColors, tailRegion } from './edge_stretch.js';
import { renderTables } from './tables.js';

const kLiveStep = 1 / 60; // the live tail steps at 60 fps whatever the slider does
const isTailTrack = (track) => /(^|[:_])Tail_[^.]*\./.test(track.name);

// The skinned meshes of a loaded glTF, in traversal order.
const skinnedMeshes = (gltf) => {
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
  return meshes;
};

class Character {
  /** regions: per skinned mesh (traversal order) the tail's vertices, or null. */
  constructor(gltf, clip, z, regions) {
    this.scene = gltf.scene;
    this.scene.position.z = z;
    this.mixer = new THREE.AnimationMixer(this.scene);
    this.mixer.clipAction(clip).play();
    this.colors = skinnedMeshes(gltf).map((mesh, i) => {
      mesh.frustumCulled = false;
      return new EdgeStretchColors(mesh, regions?.[i] ?? null);
    });
  }

  pose(t) {
    this.mixer.setTime(t);
    this.scene.updateMatrixWorld(true);
  }

  /** Recolours; the largest edge ratio, and the tail's edges over 1.3. */
  recolour() {
    const out = { maxRatio: 0, tailMaxRatio: 0, tailStretched: 0, tailEdges: 0 };
    for (const c of this.colors) {
      const r = c.update();
      out.maxRatio = Math.max(out.maxRatio, r.maxRatio);
      out.tailMaxRatio = Math.max(out.tailMaxRatio, r.regionMaxRatio);
      out.tailStretched += r.regionStretched;
      out.tailEdges += r.regionEdges;
    }
    return out;
  }
}

// The after-fix character without its baked tail keys, the adapter driving
// the tail instead; stepped forward in kLiveStep steps to the slider's time.
class LiveCharacter extends Character {
  constructor(gltf, clip, z, regions, tailrig) {
    super(gltf, new THREE.AnimationClip(clip.name, clip.duration, clip.tracks.filter((t) => !isTailTrack(t))), z, regions);
    this.duration = clip.duration;
    this.adapter = TailrigThreeAdapter.fromObject(tailrig, this.scene);
    this.time = 0;
    this.pose(0);
    this.adapter.reset();
  }

  advanceTo(t) {
    if (t < this.time - 1e-9) {
      this.time = 0;
      super.pose(0);
      this.adapter.reset();
    }
    while (this.time + 1e-9 < t) {
      const dt = Math.min(kLiveStep, t - this.time);
      this.time += dt;
      super.pose(this.time % this.duration);
      this.adapter.update(dt);
    }
  }

  /** The tail tip in the hips' frame (to tell the tail moves). */
  tipInHips() {
    const tip = this.adapter.tailBones.at(-1).getWorldPosition(new THREE.Vector3());
    return this.adapter.hips.worldToLocal(tip);
  }
}

function setUpStage(stage) {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio);
  renderer.setSize(stage.clientWidth, stage.clientHeight);
  stage.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xffffff);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x888877, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.2);
  sun.position.set(4, 5, -2); // on the camera's side (+x)
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(35, stage.clientWidth / stage.clientHeight, 0.01, 100);
  return { renderer, scene, camera };
}

export async function start(payload) {
  renderTables(document.getElementById('tables'), payload.json.results);
  if (!payload.glb.before) {
    window.viewerState = { character: false };
    window.viewerReady = true;
    return;
  }
  const meta = payload.json.character;
  const loader = new GLTFLoader();
  const parse = (buffer) => loader.parseAsync(buffer.slice(0), '');
  const [beforeGltf, bakedGltf, liveGltf] = await Promise.all(
    [payload.glb.before, payload.glb.after, payload.glb.after].map(parse));
  const tailrig = await loadTailrig({ wasmBinary: payload.wasm });
  const clipOf = (gltf) => gltf.animations.find((a) => a.name === meta.clip) ?? gltf.animations[0];

  const box = new THREE.Box3().setFromObject(beforeGltf.scene);
  const size = box.getSize(new THREE.Vector3());
  const spacing = 1.4 * Math.max(size.x, size.z, 0.5 * size.y);
  const stage = setUpStage(document.getElementById('stage'));
  // The tail's vertices from the fixed file's weights; fix keeps the vertex
  // order, so the same indices are the tail of the rigger's file too.
  const regions = skinnedMeshes(bakedGltf).map(tailRegion);
  // In a row along z, seen from the side (+x): left to right on screen.
  const before = new Character(beforeGltf, clipOf(beforeGltf), spacing, regions);
  const baked = new Character(bakedGltf, clipOf(bakedGltf), 0, regions);
  const live = new LiveCharacter(liveGltf, clipOf(liveGltf), -spacing, regions, tailrig);
  for (const c of [before, baked, live]) stage.scene.add(c.scene);

  // From the side and a little behind, where the tail and the legs it tears are seen.
  const target = new THREE.Vector3(0, box.min.y + 0.45 * size.y, 0);
  stage.camera.position.set(2.3 * spacing + size.x, box.min.y + 0.7 * size.y, -0.5 * spacing);
  const controls = new OrbitControls(stage.camera, stage.renderer.domElement);
  controls.target.copy(target);
  controls.update();

  const duration = clipOf(bakedGltf).duration;
  const slider = document.getElementById('time');
  slider.max = String(duration);
  slider.step = String(duration / 200);
  const clock = document.getElementById('clock');
  const state = { character: true, clip: meta.clip, scenario: meta.scenario, duration, time: 0, stretch: {}, liveTipTravel: 0 };
  let lastTip = null;
  let lastColour = -Infinity;

  const setTime = (t, recolour = true) => {
    const local = t % duration;
    before.pose(local);
    baked.pose(local);
    live.advanceTo(t);
    const tip = live.tipInHips();
    if (lastTip) state.liveTipTravel += tip.distanceTo(lastTip);
    lastTip = tip;
    if (recolour) {
      state.stretch = { before: before.recolour(), baked: baked.recolour(), live: live.recolour() };
      const share = (s) => `${((100 * s.tailStretched) / Math.max(s.tailEdges, 1)).toFixed(1)} %`;
      document.getElementById('summary').textContent = `tail edges over 1.3 at this time: before ${share(state.stretch.before)}, ` +
        `baked ${share(state.stretch.baked)}, live ${share(state.stretch.live)}`;
    }
    state.time = t;
    slider.value = String(local);
    clock.textContent = `${local.toFixed(2)} s`;
    stage.renderer.render(stage.scene, stage.camera);
    return state;
  };

  let playing = false;
  let previous = 0;
  const frame = (now) => {
    if (playing) {
      const dt = Math.min((now - previous) / 1000, 0.1);
      // Colours at most 10 times a second: the CPU skinning of every vertex is the slow part.
      const recolour = now - lastColour > 100;
      if (recolour) lastColour = now;
      setTime(state.time + dt, recolour);
    } else {
      stage.renderer.render(stage.scene, stage.camera);
    }
    previous = now;
    requestAnimationFrame(frame);
  };
  document.getElementById('play').onclick = (e) => {
    playing = !playing;
    e.target.textContent = playing ? 'pause' : 'play';
  };
  slider.oninput = () => setTime(Number(slider.value) + Math.floor(state.time / duration) * duration);
  controls.addEventListener('change', () => stage.renderer.render(stage.scene, stage.camera));

  setTime(0);
  window.viewerState = state;
  window.viewerSetTime = (t) => JSON.parse(JSON.stringify(setTime(t)));
  window.viewerReady = true;
  requestAnimationFrame(frame);
}
