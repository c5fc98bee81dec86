// A BVH declares no up axis: Blender's exporter writes Z up (-Y forward).
// Its legs say which way is down, and it is read as the same motion as the
// Y-up file it came from.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "rig/io/io.h"
#include "rig/model/pose.h"
#include "rig/anatomy/roles.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

using AxisMap = std::function<Vec3(const Vec3&)>;

Vec3 same(const Vec3& p) { return p; }
// Y up, +Z forward -> Blender's Z up, -Y forward.
Vec3 blender_z_up(const Vec3& p) { return {p.x(), -p.z(), p.y()}; }

struct BvhJoint {
  std::string name;
  int parent;
  Vec3 offset;                   // centimetres, Y up
  Vec3 end_site = Vec3::Zero();  // leaf joints only
};

// A T-posed biped walking 20 cm forward (+Z) in its second frame with the
// left thigh swung 30 deg about the side axis (X, the same axis either way).
std::vector<BvhJoint> biped(const std::vector<std::string>& names) {
  std::vector<BvhJoint> j = {
      {"Hips", -1, {0, 100, 0}},
      {"Spine", 0, {0, 10, 0}},
      {"Head", 1, {0, 50, 0}, {0, 15, 0}},
      {"LeftArm", 1, {15, 40, 0}},
      {"LeftForeArm", 3, {25, 0, 0}, {25, 0, 0}},
      {"RightArm", 1, {-15, 40, 0}},
      {"RightForeArm", 5, {-25, 0, 0}, {-25, 0, 0}},
      {"LeftUpLeg", 0, {10, -5, 0}},
      {"LeftLeg", 7, {0, -45, 0}},
      {"LeftFoot", 8, {0, -45, 0}, {0, -5, 12}},
      {"RightUpLeg", 0, {-10, -5, 0}},
      {"RightLeg", 10, {0, -45, 0}},
      {"RightFoot", 11, {0, -45, 0}, {0, -5, 12}},
  };
  for (size_t i = 0; i < j.size() && i < names.size(); ++i) j[i].name = names[i];
  return j;
}

std::string bvh_text(const std::vector<BvhJoint>& joints, const AxisMap& to_file) {
  std::ostringstream s;
  auto v = [&](const Vec3& p) {
    const Vec3 q = to_file(p);
    return std::to_string(q.x()) + " " + std::to_string(q.y()) + " " + std::to_string(q.z());
  };
  std::function<void(int, int)> write = [&](int j, int depth) {
    const std::string pad(static_cast<size_t>(depth), '\t');
    s << pad << (j == 0 ? "ROOT " : "JOINT ") << joints[j].name << "\n" << pad << "{\n";
    s << pad << "\tOFFSET " << v(joints[j].offset) << "\n";
    s << pad << "\tCHANNELS " << (j == 0 ? "6 Xposition Yposition Zposition " : "3 ")
      << "Zrotation Xrotation Yrotation\n";
    bool leaf = true;
    for (size_t c = 0; c < joints.size(); ++c)
      if (joints[c].parent == j) {
        write(static_cast<int>(c), depth + 1);
        leaf = false;
      }
    if (leaf)
      s << pad << "\tEnd Site\n"
        << pad << "\t{\n"
        << pad << "\t\tOFFSET " << v(joints[j].end_site) << "\n"
        << pad << "\t}\n";
    s << pad << "}\n";
  };
  s << "HIERARCHY\n";
  write(0, 0);
  // Channel order is the hierarchy's depth-first order: parents before
  // children, siblings in file order (the table above is already that).
  s << "MOTION\nFrames: 2\nFrame Time: 0.5\n";
  for (int frame = 0; frame < 2; ++frame) {
    s << v(Vec3(0, 100, frame * 20.0)) << " 0 0 0";
    for (size_t j = 1; j < joints.size(); ++j) s << (frame == 1 && j == 7 ? " 0 -30 0" : " 0 0 0");
    s << "\n";
  }
  return s.str();
}

std::string write_bvh(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / ("tailrig_bvh_up_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

bool turned(const Status& s) {
  for (const std::string& n : s.notes)
    if (n.find("turned onto Y up") != std::string::npos) return true;
  return false;
}

std::vector<Vec3> joint_positions(const Character& c, double time) {
  std::vector<Vec3> out;
  for (const Mat4& m : pose_at(c.skeleton, c.clips.at(0), time))
    out.emplace_back(m.block<3, 1>(0, 3));
  return out;
}

TEST(BvhUpAxis, BlenderZUpExportReadsAsTheYUpMotion) {
  Character y_up, z_up;
  const Status sy = load(write_bvh("y_up.bvh", bvh_text(biped({}), same)), y_up);
  const Status sz = load(write_bvh("z_up.bvh", bvh_text(biped({}), blender_z_up)), z_up);
  ASSERT_TRUE(sy.ok()) << sy.message;
  ASSERT_TRUE(sz.ok()) << sz.message;
  EXPECT_FALSE(turned(sy));
  EXPECT_TRUE(turned(sz));
  EXPECT_EQ(leg_count(y_up.skeleton), 2);
  EXPECT_EQ(leg_count(z_up.skeleton), 2);
  EXPECT_EQ(y_up.skeleton.roles, z_up.skeleton.roles);
  ASSERT_EQ(y_up.skeleton.size(), z_up.skeleton.size());
  for (double t : {0.0, 0.5}) {
    const std::vector<Vec3> a = joint_positions(y_up, t), b = joint_positions(z_up, t);
    for (size_t j = 0; j < a.size(); ++j)
      EXPECT_LT((a[j] - b[j]).norm(), 1e-4) << y_up.skeleton.names[j] << " at " << t << " s";
  }
  // The walk goes forward and the swung left foot leaves its rest place.
  const std::vector<Vec3> rest = joint_positions(z_up, 0.0), swung = joint_positions(z_up, 0.5);
  EXPECT_NEAR(swung[0].z() - rest[0].z(), 20.0, 1e-4);
  EXPECT_NEAR(swung[0].y(), rest[0].y(), 1e-4);
  EXPECT_LT(rest[9].y(), rest[0].y() - 80.0);  // the feet hang below the hips
}

// Without named legs the shape tells: the roles read as Y up find the legs
// hanging straight down only in the frame that is up. The unnamed Z-up
// biped reads as the unnamed Y-up one, which is kept as it is.
TEST(BvhUpAxis, UnnamedLegsAreReadFromTheShape) {
  std::vector<std::string> names;
  for (int i = 0; i < 13; ++i) names.push_back("j" + std::to_string(i));
  Character y_up, z_up;
  const Status sy = load(write_bvh("y_up_unnamed.bvh", bvh_text(biped(names), same)), y_up);
  const Status sz = load(write_bvh("z_up_unnamed.bvh", bvh_text(biped(names), blender_z_up)), z_up);
  ASSERT_TRUE(sy.ok()) << sy.message;
  ASSERT_TRUE(sz.ok()) << sz.message;
  EXPECT_FALSE(turned(sy));
  EXPECT_TRUE(turned(sz));
  EXPECT_EQ(leg_count(z_up.skeleton), 2);
  EXPECT_EQ(y_up.skeleton.roles, z_up.skeleton.roles);
  for (double t : {0.0, 0.5}) {
    const std::vector<Vec3> a = joint_positions(y_up, t), b = joint_positions(z_up, t);
    for (size_t j = 0; j < a.size(); ++j) EXPECT_LT((a[j] - b[j]).norm(), 1e-4) << names[j] << " at " << t << " s";
  }
}

// A skeleton without legs (a snake: one chain) says nothing of its up axis:
// the file's axes stay.
TEST(BvhUpAxis, NoLegsKeepTheFileAxes) {
  std::vector<BvhJoint> chain;
  for (int i = 0; i < 6; ++i) chain.push_back({"j" + std::to_string(i), i - 1, Vec3(0, i == 0 ? 10 : 0, i == 0 ? 0 : 20)});
  chain.back().end_site = Vec3(0, 0, 10);
  std::string text = bvh_text(chain, blender_z_up);
  Character c;
  const Status s = load(write_bvh("snake.bvh", text), c);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_FALSE(turned(s));
}

// Legs bent forward (a seated bind pose), 50 deg off the file's -Y and 40
// deg off its -Z: between two axes, not enough to turn a file.
TEST(BvhUpAxis, LegsBetweenAxesKeepTheFileAxes) {
  std::vector<BvhJoint> j = biped({});
  for (int knee : {8, 11})
    j[knee].offset =
        j[knee + 1].offset = {0, -34.47, 28.93};  // Y up; the file gets (0, -28.93, -34.47)
  Character c;
  const Status s = load(write_bvh("seated.bvh", bvh_text(j, blender_z_up)), c);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_FALSE(turned(s));
  const std::vector<Vec3> rest = joint_positions(c, 0.0);
  EXPECT_NEAR(rest[9].y(), rest[7].y() - 57.86, 1e-3);  // as written
}

// The shape asks as much of unnamed legs as names do: the same biped
// unnamed, seated 35 deg forward and written Z up, has legs 35 deg off the
// file's -Z, more than the 25 deg that turns a file (the shape reading was
// content with cos 0.816, i.e. 35 deg, and turned it). It keeps its axes.
TEST(BvhUpAxis, UnnamedLegsOffEveryAxisKeepTheFileAxes) {
  std::vector<std::string> names;
  for (int i = 0; i < 13; ++i) names.push_back("j" + std::to_string(i));
  std::vector<BvhJoint> j = biped(names);
  for (int knee : {8, 11}) j[knee].offset = j[knee + 1].offset = {0, -36.86, 25.81};  // 35 deg forward
  Character seated, straight;
  const Status s = load(write_bvh("seated_unnamed.bvh", bvh_text(j, blender_z_up)), seated);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_FALSE(turned(s));
  // Straight legs, the same file otherwise: turned.
  const Status t = load(write_bvh("straight_unnamed.bvh", bvh_text(biped(names), blender_z_up)), straight);
  ASSERT_TRUE(t.ok()) << t.message;
  EXPECT_TRUE(turned(t));
}

}  // namespace
}  // namespace rig
