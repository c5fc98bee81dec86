/* run_c_api: drives the native solver through its C API (tailrig_solver.h)
 * over a run described in a text file, and prints every frame's tail.
 *
 * Why it exists: the WebAssembly package must give what the native solver
 * gives. The JavaScript tests write the run they are about to do in wasm
 * (rig, hips matrices, capsules, frame times) with numbers printed so they
 * read back to the same doubles, this program replays it natively, and the
 * test compares. The reference is made at test time from the code being
 * tested, never a copied golden.
 *
 * Input (whitespace-separated tokens; numbers as strtod reads them):
 *   tailrig-run 1
 *   joints N            then N lines: name parent ibm[16] (column-major)
 *   hips H              (-1: found by name)
 *   collider_margin M   (metres; the C API default when negative)
 *   capsules C          (0..TAILRIG_MAX_CAPSULES, the same count every frame)
 *   frames F            then F lines: op dt hips[16] C x (a[3] b[3] ra rb)
 *                       op: s = step (step_frame when C > 0), r = reset
 * Output: "bones B", then per frame "frame i" and per bone a line
 *   x y z qx qy qz qw   (world position of the bone, local rotation)
 * printed with 17 significant digits (exact for doubles).
 *
 * With --batch C: a tailrig_batch of C chains of the rig
 * (tailrig_batch.h); chain c at frame f takes the hips and capsules of frame
 * (f + 17 c) mod F moved by 2 c rig units along x (test/batch_run.mjs
 * builds the same), frame f's dt, and is reset at frame f's resets. Output:
 * "bones B chains C", then per frame "frame i" and per chain a line of
 * 4 B floats (local rotations x y z w, bone by bone) printed with 9
 * significant digits (exact for floats).
 * Exit 0 ok, 2 bad input or a refused call (message on stderr). C99. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/tailrig_batch.h"
#include "solver/tailrig_solver.h"

enum { kMaxJoints = 10000, kMaxBones = 256, kNameLength = 256 };

static int fail(const char* what) {
  fprintf(stderr, "run_c_api: %s\n", what);
  return 2;
}

static int read_word(FILE* in, const char* expected) {
  char word[64];
  return fscanf(in, "%63s", word) == 1 && strcmp(word, expected) == 0;
}

static int read_doubles(FILE* in, double* out, int count) {
  for (int i = 0; i < count; ++i) {
    if (fscanf(in, "%lf", &out[i]) != 1) return 0;
  }
  return 1;
}

/* Prints the tail after the latest step or reset. */
static int print_tail(const tailrig_chain* chain, int frame, int bones) {
  static double world[16 * kMaxBones];
  static double rotations[4 * kMaxBones];
  if (tailrig_chain_world_matrices(chain, world, bones) != TAILRIG_OK ||
      tailrig_chain_local_rotations(chain, rotations, bones) != TAILRIG_OK) {
    return fail(tailrig_last_error());
  }
  printf("frame %d\n", frame);
  for (int b = 0; b < bones; ++b) {
    const double* m = world + 16 * b;
    const double* q = rotations + 4 * b;
    printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", m[12], m[13], m[14], q[0], q[1], q[2],
           q[3]);
  }
  return 0;
}

/* Reads the rig and builds the chain; 0 on success. */
static int create_chain(FILE* in, tailrig_chain** chain) {
  int joints = 0, hips = -1;
  if (!read_word(in, "tailrig-run") || !read_word(in, "1")) return fail("not a tailrig-run 1 file");
  if (!read_word(in, "joints") || fscanf(in, "%d", &joints) != 1 || joints < 1 ||
      joints > kMaxJoints) {
    return fail("bad joints line");
  }
  char(*names)[kNameLength] = calloc((size_t)joints, kNameLength);
  const char** name_pointers = calloc((size_t)joints, sizeof(char*));
  int32_t* parents = calloc((size_t)joints, sizeof(int32_t));
  double* inverse_bind = calloc((size_t)joints * 16, sizeof(double));
  int status = 0;
  if (!names || !name_pointers || !parents || !inverse_bind) status = fail("out of memory");
  for (int j = 0; status == 0 && j < joints; ++j) {
    int parent = 0;
    if (fscanf(in, "%255s %d", names[j], &parent) != 2 ||
        !read_doubles(in, inverse_bind + 16 * j, 16)) {
      status = fail("bad joint line");
    }
    name_pointers[j] = names[j];
    parents[j] = parent;
  }
  if (status == 0 && (!read_word(in, "hips") || fscanf(in, "%d", &hips) != 1)) {
    status = fail("bad hips line");
  }
  if (status == 0 && tailrig_chain_create(name_pointers, parents, inverse_bind, joints, hips, NULL,
                                          chain) != TAILRIG_OK) {
    status = fail(tailrig_last_error());
  }
  free(names);
  free(name_pointers);
  free(parents);
  free(inverse_bind);
  return status;
}

/* Reads the collider margin line and applies it; 0 on success. */
static int set_margin(FILE* in, tailrig_chain* chain) {
  double margin = -1.0;
  if (!read_word(in, "collider_margin") || !read_doubles(in, &margin, 1)) {
    return fail("bad collider_margin line");
  }
  if (margin < 0.0) return 0;
  tailrig_collider_params p;
  tailrig_collider_params_default(&p);
  p.margin = margin;
  return tailrig_chain_set_collider_params(chain, &p) == TAILRIG_OK ? 0
                                                                    : fail(tailrig_last_error());
}

/* Reads and runs every frame, printing the tail after each; 0 on success. */
static int run_frames(FILE* in, tailrig_chain* chain) {
  int capsule_count = 0, frames = 0;
  if (!read_word(in, "capsules") || fscanf(in, "%d", &capsule_count) != 1 || capsule_count < 0 ||
      capsule_count > TAILRIG_MAX_CAPSULES) {
    return fail("bad capsules line");
  }
  if (!read_word(in, "frames") || fscanf(in, "%d", &frames) != 1 || frames < 0) {
    return fail("bad frames line");
  }
  const int bones = tailrig_chain_bone_count(chain);
  if (bones > kMaxBones) return fail("too many tail bones");
  printf("bones %d\n", bones);
  tailrig_capsule capsules[TAILRIG_MAX_CAPSULES];
  tailrig_frame_input frame;
  tailrig_frame_input_default(&frame);
  frame.capsules = capsules;
  frame.capsule_count = capsule_count;
  for (int f = 0; f < frames; ++f) {
    char op[8];
    double dt = 0.0;
    if (fscanf(in, "%7s", op) != 1 || !read_doubles(in, &dt, 1) ||
        !read_doubles(in, frame.hips_world, 16)) {
      return fail("bad frame line");
    }
    for (int c = 0; c < capsule_count; ++c) {
      double v[8];
      if (!read_doubles(in, v, 8)) return fail("bad capsule values");
      memcpy(capsules[c].a, v, sizeof(capsules[c].a));
      memcpy(capsules[c].b, v + 3, sizeof(capsules[c].b));
      capsules[c].radius_a = v[6];
      capsules[c].radius_b = v[7];
    }
    tailrig_status s;
    if (strcmp(op, "r") == 0) {
      s = tailrig_chain_reset(chain, frame.hips_world);
    } else if (capsule_count > 0) {
      s = tailrig_chain_step_frame(chain, dt, &frame);
    } else {
      s = tailrig_chain_step(chain, dt, frame.hips_world);
    }
    if (s != TAILRIG_OK) return fail(tailrig_last_error());
    if (print_tail(chain, f, bones) != 0) return 2;
  }
  return 0;
}

/* The run's frames, read whole: the batch needs other frames' hips. */
typedef struct batch_run {
  int frames, capsule_count;
  double* dts;
  char* resets;
  double* hips;     /* 16 per frame */
  double* capsules; /* 8 * capsule_count per frame */
} batch_run;

static int read_batch_run(FILE* in, batch_run* r) {
  if (!read_word(in, "capsules") || fscanf(in, "%d", &r->capsule_count) != 1 ||
      r->capsule_count < 0 || r->capsule_count > TAILRIG_MAX_CAPSULES)
    return fail("bad capsules line");
  if (!read_word(in, "frames") || fscanf(in, "%d", &r->frames) != 1 || r->frames < 1)
    return fail("bad frames line");
  const size_t f = (size_t)r->frames;
  r->dts = calloc(f, sizeof(double));
  r->resets = calloc(f, 1);
  r->hips = calloc(f * 16, sizeof(double));
  r->capsules = calloc(f * 8 * (size_t)r->capsule_count + 1, sizeof(double));
  if (!r->dts || !r->resets || !r->hips || !r->capsules) return fail("out of memory");
  for (int i = 0; i < r->frames; ++i) {
    char op[8];
    if (fscanf(in, "%7s", op) != 1 || !read_doubles(in, &r->dts[i], 1) ||
        !read_doubles(in, r->hips + 16 * i, 16) ||
        !read_doubles(in, r->capsules + 8 * r->capsule_count * i, 8 * r->capsule_count))
      return fail("bad frame line");
    r->resets[i] = strcmp(op, "r") == 0;
  }
  return 0;
}

/* Chain c's input at frame f (see the header comment). */
static void batch_frame(const batch_run* r, int f, int c, tailrig_frame_input* out,
                        tailrig_capsule* capsules) {
  const int from = (f + 17 * c) % r->frames;
  tailrig_frame_input_default(out);
  memcpy(out->hips_world, r->hips + 16 * from, 16 * sizeof(double));
  out->hips_world[12] += 2.0 * c;
  for (int k = 0; k < r->capsule_count; ++k) {
    const double* v = r->capsules + 8 * (r->capsule_count * from + k);
    memcpy(capsules[k].a, v, 3 * sizeof(double));
    memcpy(capsules[k].b, v + 3, 3 * sizeof(double));
    capsules[k].a[0] += 2.0 * c, capsules[k].b[0] += 2.0 * c;
    capsules[k].radius_a = v[6], capsules[k].radius_b = v[7];
  }
  out->capsules = capsules;
  out->capsule_count = r->capsule_count;
}

/* Runs the frames through a batch of `chains`, printing every chain's rotations. */
static int run_batch_frames(const batch_run* r, tailrig_batch* batch, int chains, int bones) {
  tailrig_frame_input* in = calloc((size_t)chains, sizeof(tailrig_frame_input));
  tailrig_capsule* capsules =
      calloc((size_t)chains * (size_t)r->capsule_count + 1, sizeof(tailrig_capsule));
  float* rotations = calloc((size_t)chains * (size_t)bones * 4, sizeof(float));
  int status = in && capsules && rotations ? 0 : fail("out of memory");
  if (status == 0 && tailrig_batch_set_collider_capacity(batch, r->capsule_count) != TAILRIG_OK)
    status = fail(tailrig_last_error());
  for (int f = 0; status == 0 && f < r->frames; ++f) {
    for (int c = 0; c < chains; ++c) batch_frame(r, f, c, &in[c], capsules + r->capsule_count * c);
    tailrig_status s = TAILRIG_OK;
    for (int c = 0; r->resets[f] && c < chains && s == TAILRIG_OK; ++c)
      s = tailrig_batch_reset(batch, c, in[c].hips_world);
    if (!r->resets[f]) s = tailrig_batch_step_frames(batch, r->dts[f], in, chains);
    if (s == TAILRIG_OK) s = tailrig_batch_local_rotations(batch, rotations, chains * bones);
    if (s != TAILRIG_OK) {
      status = fail(tailrig_last_error());
      break;
    }
    printf("frame %d\n", f);
    for (int c = 0; c < chains; ++c) {
      for (int k = 0; k < 4 * bones; ++k)
        printf(k ? " %.9g" : "%.9g", (double)rotations[4 * bones * c + k]);
      printf("\n");
    }
  }
  free(in), free(capsules), free(rotations);
  return status;
}

/* Reads every frame, then runs them through a batch of `chains`; 0 on success. */
static int run_batch(FILE* in, const tailrig_chain* chain, int chains) {
  batch_run r = {0, 0, NULL, NULL, NULL, NULL};
  int status = read_batch_run(in, &r);
  tailrig_batch* batch = NULL;
  if (status == 0 && tailrig_batch_create(chain, chains, &batch) != TAILRIG_OK)
    status = fail(tailrig_last_error());
  const int bones = tailrig_chain_bone_count(chain);
  if (status == 0) printf("bones %d chains %d\n", bones, chains);
  if (status == 0) status = run_batch_frames(&r, batch, chains, bones);
  tailrig_batch_destroy(batch);
  free(r.dts), free(r.resets), free(r.hips), free(r.capsules);
  return status;
}

int main(int argc, char** argv) {
  const int chains = argc == 4 && strcmp(argv[2], "--batch") == 0 ? atoi(argv[3]) : 0;
  if (argc != 2 && chains < 1) {
    fprintf(stderr,
            "usage: run_c_api RUN_FILE [--batch CHAINS]   (format: see web/native/run_c_api.c)\n");
    return 2;
  }
  FILE* in = fopen(argv[1], "r");
  if (!in) return fail("cannot open the run file");
  tailrig_chain* chain = NULL;
  int status = create_chain(in, &chain);
  if (status == 0) status = set_margin(in, chain);
  if (status == 0) status = chains > 0 ? run_batch(in, chain, chains) : run_frames(in, chain);
  tailrig_chain_destroy(chain);
  fclose(in);
  return status;
}
