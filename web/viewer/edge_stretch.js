// Per-edge stretch as vertex colour on a skinned mesh: each mesh edge's
// posed length over its bind length (three.js's own skinning, on the CPU),
// and each vertex coloured by its most stretched or compressed edge. A
// picture of the measure the report's tables give in numbers (measure/:
// edge stretch), not that measure itself: edges here are the triangles'
// edges of each primitive, not welded across seams.
import { BufferAttribute, Color, Vector3 } from 'three';

const kGrey = new Color(0.85, 0.85, 0.85);
const kOrange = new Color(0.91, 0.64, 0.24);
const kRed = new Color(0.84, 0.1, 0.11);
const kBlue = new Color(0.17, 0.35, 0.76);

/** The colour of a stretch ratio: grey at 1, orange at 1.15, red from 1.3, blue from 0.7. */
export function stretchColor(ratio, out = new Color()) {
  if (ratio >= 1) {
    const t = Math.min((ratio - 1) / 0.3, 1);
    return t < 0.5 ? out.copy(kGrey).lerp(kOrange, t * 2) : out.copy(kOrange).lerp(kRed, (t - 0.5) * 2);
  }
  return out.copy(kGrey).lerp(kBlue, Math.min((1 - ratio) / 0.3, 1));
}

export class EdgeStretchColors {
  /**
   * mesh: a SkinnedMesh; gives it a colour attribute and vertex colours.
   * region: optional per-vertex 0/1 (the tail): edges with both ends in it
   * are also counted on their own.
   */
  constructor(mesh, region = null) {
    this.mesh = mesh;
    this.region = region && region.length === mesh.geometry.getAttribute('position').count ? region : null;
    const geometry = mesh.geometry;
    const position = geometry.getAttribute('position');
    this.count = position.count;
    const index = geometry.index ? geometry.index.array : Uint32Array.from({ length: this.count }, (_, i) => i);
    const seen = new Set();
    const edges = [];
    for (let t = 0; t + 2 < index.length; t += 3) {
      for (const [a, b] of [[index[t], index[t + 1]], [index[t + 1], index[t + 2]], [index[t + 2], index[t]]]) {
        const key = a < b ? a * this.count + b : b * this.count + a;
        if (!seen.has(key)) {
          seen.add(key);
          edges.push(a, b);
        }
      }
    }
    this.edges = Uint32Array.from(edges);
    this.bindLength = new Float64Array(this.edges.length / 2);
    const pa = new Vector3(), pb = new Vector3();
    for (let e = 0; e < this.bindLength.length; ++e) {
      pa.fromBufferAttribute(position, this.edges[2 * e]);
      pb.fromBufferAttribute(position, this.edges[2 * e + 1]);
      this.bindLength[e] = pa.distanceTo(pb);
    }
    this.posed = new Float32Array(3 * this.count);
    this.worst = new Float64Array(this.count);
    this.colors = new BufferAttribute(new Float32Array(3 * this.count), 3);
    geometry.setAttribute('color', this.colors);
    mesh.material = mesh.material.clone();
    mesh.material.vertexColors = true;
    mesh.material.color?.set(0xffffff);
    mesh.material.map = null;
    mesh.material.needsUpdate = true;
  }

  /**
   * Recolours for the current pose; returns { maxRatio, stretchedShare }
   * (share of edges over 1.3) over all edges and, as regionMaxRatio and
   * regionStretched/regionEdges, over the region's.
   */
  update() {
    const v = new Vector3();
    this.mesh.skeleton.update();
    for (let i = 0; i < this.count; ++i) {
      this.mesh.getVertexPosition(i, v);
      this.posed[3 * i] = v.x; this.posed[3 * i + 1] = v.y; this.posed[3 * i + 2] = v.z;
    }
    this.worst.fill(1);
    let maxRatio = 0, stretched = 0, regionMaxRatio = 0, regionStretched = 0, regionEdges = 0;
    const p = this.posed;
    for (let e = 0; e < this.bindLength.length; ++e) {
      const a = 3 * this.edges[2 * e], b = 3 * this.edges[2 * e + 1];
      const length = Math.hypot(p[a] - p[b], p[a + 1] - p[b + 1], p[a + 2] - p[b + 2]);
      if (!(this.bindLength[e] > 0)) continue;
      const ratio = length / this.bindLength[e];
      maxRatio = Math.max(maxRatio, ratio);
      if (ratio > 1.3) ++stretched;
      if (this.region && this.region[a / 3] && this.region[b / 3]) {
        ++regionEdges;
        regionMaxRatio = Math.max(regionMaxRatio, ratio);
        if (ratio > 1.3) ++regionStretched;
      }
      for (const vtx of [a / 3, b / 3]) {
        if (Math.abs(Math.log(ratio)) > Math.abs(Math.log(this.worst[vtx]))) this.worst[vtx] = ratio;
      }
    }
    const c = new Color();
    for (let i = 0; i < this.count; ++i) {
      stretchColor(this.worst[i], c);
      this.colors.setXYZ(i, c.r, c.g, c.b);
    }
    this.colors.needsUpdate = true;
    return {
      maxRatio,
      stretchedShare: stretched / Math.max(this.bindLength.length, 1),
      regionMaxRatio,
      regionStretched,
      regionEdges,
    };
  }
}

/** Per vertex 1 where a Tail_* bone has weight (skinIndex/skinWeight). */
export function tailRegion(mesh) {
  const index = mesh.geometry.getAttribute('skinIndex');
  const weight = mesh.geometry.getAttribute('skinWeight');
  if (!index || !weight) return null;
  const isTail = mesh.skeleton.bones.map((b) => /(^|[:_])Tail_/.test(b.name));
  const region = new Uint8Array(index.count);
  for (let i = 0; i < index.count; ++i) {
    for (let k = 0; k < index.itemSize; ++k) {
      if (weight.getComponent(i, k) > 0 && isTail[index.getComponent(i, k)]) region[i] = 1;
    }
  }
  return region;
}
