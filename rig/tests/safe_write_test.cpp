// Safe writes (issue 15): a failed write is an error and never costs the
// previous file; save_glb reports every failure and repairs what glTF forbids.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rig/io/io.h"
#include "rig/io/safe_write.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("tailrig_safe_write_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

int entries(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(SafeWrite, ReplacesTheWholeFileAndKeepsItsMode) {
  const fs::path dir = temp_dir("replace");
  const fs::path f = dir / "out.txt";
  ASSERT_TRUE(write_file_atomic(f.string(), "first version, long").ok());
  ::chmod(f.c_str(), 0600);
  ASSERT_TRUE(write_file_atomic(f.string(), "second").ok());
  EXPECT_EQ(slurp(f), "second");
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(entries(dir), 1) << "no temporary file may be left behind";
}

TEST(SafeWrite, EveryFailureIsAnErrorNamingThePath) {
  const fs::path dir = temp_dir("fail");
  const Status missing = write_file_atomic((dir / "no" / "x.glb").string(), "x");
  EXPECT_EQ(missing.code, Status::Code::kIoError);
  EXPECT_NE(missing.message.find("does not exist"), std::string::npos) << missing.message;
  const Status onto_dir = write_file_atomic(dir.string(), "x");
  EXPECT_EQ(onto_dir.code, Status::Code::kIoError);
  EXPECT_NE(onto_dir.message.find("is a directory"), std::string::npos) << onto_dir.message;
  if (fs::exists("/dev/full")) {
    const Status full = write_file_atomic("/dev/full", std::string(1 << 16, 'x'));
    EXPECT_EQ(full.code, Status::Code::kIoError);
    EXPECT_NE(full.message.find("/dev/full"), std::string::npos) << full.message;
  }
  EXPECT_EQ(entries(dir), 0);
}

// A full disk, simulated with a file size limit: the write fails with EFBIG
// and the previous file stays as it was.
TEST(SafeWrite, FullDiskKeepsThePreviousFile) {
  const fs::path dir = temp_dir("full");
  const fs::path f = dir / "golden.json";
  ASSERT_TRUE(write_file_atomic(f.string(), "previous").ok());
  struct rlimit old {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const Status s = write_file_atomic(f.string(), std::string(1 << 20, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(s.code, Status::Code::kIoError);
  EXPECT_NE(s.message.find("cannot write"), std::string::npos) << s.message;
  EXPECT_EQ(slurp(f), "previous");
  EXPECT_EQ(entries(dir), 1);
}

TEST(SafeWrite, SameFile) {
  const fs::path dir = temp_dir("same");
  ASSERT_TRUE(write_file_atomic((dir / "a").string(), "a").ok());
  fs::create_symlink(dir / "a", dir / "link");
  EXPECT_TRUE(same_file((dir / "a").string(), (dir / "link").string()));
  EXPECT_TRUE(same_file((dir / "a").string(), (dir / "." / "a").string()));
  EXPECT_FALSE(same_file((dir / "a").string(), (dir / "b").string()));
  EXPECT_FALSE(same_file("", (dir / "a").string()));
}

TEST(StatusMessage, ThirdPartyTextBecomesOneLine) {
  const Status s = Status::Error(Status::Code::kBadData, "f.glb: first\nsecond\r\n");
  EXPECT_EQ(s.message.find('\n'), std::string::npos);
  EXPECT_EQ(s.message, "f.glb: first second");
}

Character two_joint_character() {
  Character c;
  Skeleton& sk = c.skeleton;
  sk.names = {"Hips", "Spine"};
  sk.parents = {-1, 0};
  for (int i = 0; i < 2; ++i) {
    Mat4 m = Mat4::Identity();
    m(1, 3) = 1.0 + 0.5 * i;
    sk.bind_world.push_back(m);
    sk.inverse_bind.push_back(m.inverse());
    sk.root_parent_world.push_back(Mat4::Identity());
  }
  sk.neutral_local = {Transform::from_matrix(sk.bind_world[0]),
                      Transform::from_matrix(sk.bind_world[0].inverse() * sk.bind_world[1])};
  sk.stored_local = sk.neutral_local;
  sk.roles.resize(2);
  c.mesh.positions = {{-0.1, 1, 0}, {0.1, 1, 0}, {0, 1.6, 0}};
  c.mesh.triangles = {{0, 1, 2}};
  c.mesh.source_primitive.assign(3, 0);
  c.mesh.source_index = {0, 1, 2};
  c.mesh.primitives = {{0, 0, 0, 3, "tri"}};
  c.skin.influences = {{{0, 1.0}}, {{0, 1.0}}, {{1, 1.0}}};
  return c;
}

TEST(SaveGlb, RefusesToOverwriteItsInput) {
  const fs::path dir = temp_dir("input");
  const fs::path f = dir / "in.glb";
  Character c = two_joint_character();
  ASSERT_TRUE(save_glb(c, f.string()).ok());
  Character loaded;
  ASSERT_TRUE(load(f.string(), loaded).ok());
  const std::string before = slurp(f);
  const Status s = save_glb(loaded, f.string());
  EXPECT_EQ(s.code, Status::Code::kIoError);
  EXPECT_NE(s.message.find("is the input file"), std::string::npos) << s.message;
  EXPECT_EQ(slurp(f), before);
}

TEST(SaveGlb, WriteFailureIsReported) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const Status s = save_glb(two_joint_character(), "/dev/full");
  EXPECT_EQ(s.code, Status::Code::kIoError);
  const Status missing = save_glb(two_joint_character(), (temp_dir("missing") / "no" / "x.glb").string());
  EXPECT_EQ(missing.code, Status::Code::kIoError);
}

// Key times equal as doubles or only once written as floats: the writer
// keeps the last key of each time and says so; the file reads back strictly
// increasing.
TEST(SaveGlb, RepeatedKeyTimesAreMadeStrictlyIncreasing) {
  Character c = two_joint_character();
  Clip clip;
  clip.name = "wag";
  clip.duration = 1.0;
  JointTracks jt;
  jt.joint = 1;
  const Quat a(Eigen::AngleAxisd(0.3, Vec3::UnitY())), b(Eigen::AngleAxisd(-0.3, Vec3::UnitY()));
  jt.rotation = {{0.0, 0.5, 0.5, 0.5 + 1e-12, 1.0}, {Quat::Identity(), a, b, b, Quat::Identity()},
                 Interpolation::kLinear};
  clip.tracks.push_back(jt);
  c.clips.push_back(clip);
  const fs::path f = temp_dir("keys") / "keys.glb";
  const Status s = save_glb(c, f.string());
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("2 keys at a repeated time dropped"), std::string::npos) << s.notes[0];
  Character back;
  ASSERT_TRUE(load(f.string(), back).ok());
  ASSERT_EQ(back.clips.size(), 1u);
  const auto& times = back.clips[0].tracks.at(0).rotation.times;
  ASSERT_EQ(times.size(), 3u);
  for (size_t k = 1; k < times.size(); ++k) EXPECT_LT(times[k - 1], times[k]);
  EXPECT_TRUE(back.clips[0].tracks[0].rotation.values[1].isApprox(b, 1e-6));
}

}  // namespace
}  // namespace rig
