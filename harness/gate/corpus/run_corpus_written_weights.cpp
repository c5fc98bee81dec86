// Corpus check: `harness fix` on a character it leaves alone writes every
// skin weight as its file holds it, or its summary names each changed vertex
// and why (issue 45, class 8: "every weight unchanged" was printed while the
// writer renormalised 749 vertices of a robot).
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/gate/corpus/run_corpus.h"
#include "pipeline/fix.h"
#include "rig/io/file_weights.h"
#include "rig/io/io.h"

namespace harness::corpus {

namespace {

// One vertex's weights as (joint name, float32 weight), sorted: what a
// reader of the file gets, whatever the joint order of the skin. Views of
// the skeleton's names into `out` (reused): no string is built per vertex.
void named(const rig::Skeleton& sk, const std::vector<rig::Influence>& in,
           std::vector<std::pair<std::string_view, float>>& out) {
  out.clear();
  for (const rig::Influence& i : in)
    out.emplace_back(i.joint >= 0 && i.joint < sk.size() ? std::string_view(sk.names[i.joint]) : std::string_view("?"),
                     static_cast<float>(i.weight));
  std::sort(out.begin(), out.end());
}

}  // namespace

void check_written_weights(const Entry& e, const rig::Character& c, const pipeline::FixOutcome* fixed_c,
                           FileResult& r) {
  // The files are written into memory and read back from there: the same
  // bytes save_glb writes and the same reader, without a temporary folder,
  // a file and its fsync per write (issue 47: sixty fsyncs a run).
  // The input as a file: a fixture is written first, with its weights as built.
  rig::Character written;
  rig::Status st = rig::Status::Ok();
  std::string bytes;
  if (!c.gltf) {
    st = rig::save_glb_bytes(c, bytes);
    if (st.ok()) st = rig::load_glb_bytes(bytes, e.id + " in.glb", written);
  }
  const rig::Character& in = c.gltf ? c : written;
  // A character read from glTF is fix's input as it is: its fix is the one
  // check_fix_original made (fix is a function of its input), not redone.
  pipeline::FixOutcome own;
  const bool reuse = c.gltf && fixed_c;
  if (st.ok() && !reuse) st = pipeline::fix_character(in, pipeline::FixOptions{}, own);
  const pipeline::FixOutcome& fixed = reuse ? *fixed_c : own;
  if (st.ok()) st = rig::save_glb_bytes(fixed.result.character, bytes);
  rig::Character out;
  if (st.ok()) st = rig::load_glb_bytes(bytes, e.id + " out.glb", out);
  if (!st.ok()) {
    add_check(r, "fix.written_weights_status_ok", 0, "==", 1, st.message);
    return;
  }
  const auto before = rig::weights_in_file(in);
  const auto after = rig::weights_in_file(out);
  if (before.size() != after.size() || before.empty()) {
    add_check(r, "fix.written_weights_read", 0, "==", 1, "the written file's vertices do not match the input's");
    return;
  }
  int changed = 0;
  std::vector<std::pair<std::string_view, float>> a, b;
  for (size_t v = 0; v < before.size(); ++v) {
    named(in.skeleton, before[v], a);
    named(out.skeleton, after[v], b);
    changed += a != b;
  }
  const rig::WeightWriteChanges& told = fixed.weights_on_write;
  const std::string said = rig::weight_changes_text(told);
  r.row["fix_written_weights_changed"] = changed;
  r.metrics["fix.written_weights_changed"] = changed;
  // Only where fix rewrote nothing on purpose (a worn item made rigid changes
  // its own weights, checked by fix.rigid).
  if (e.rigid != 0) return;
  add_check(r, "fix.written_weights_unexplained", changed - told.total(), "==", 0,
            std::to_string(changed) + " vertices' float32 weights differ between the input file and fix's output; "
                "the summary names " + (said.empty() ? std::string("none (\"every weight unchanged\")") : said));
}

}  // namespace harness::corpus
