// The BabyAI levels, with minigrid 3.2.0's ids and constructor arguments
// (minigrid/__init__.py), plus EnvPool's BabyAI-GoToOpen-v0 (GoTo with
// doors_open=True).
#pragma once

#include <string>
#include <utility>

#include "envs/minigrid/babyai/goto.h"
#include "envs/minigrid/babyai/levelgen.h"
#include "envs/minigrid/babyai/open.h"
#include "envs/minigrid/babyai/other.h"
#include "envs/minigrid/babyai/pickup.h"
#include "envs/minigrid/babyai/putnext.h"
#include "envs/minigrid/babyai/unlock.h"

namespace envpool_lite {
namespace minigrid {
namespace babyai {

inline void RegisterBabyAI(MiniGridRegistry& registry) {
  using I = int64_t;
  const std::string b = "BabyAI-";
  // goto.py
  registry.Add<GoToRedBallEnv>(b + "GoToRedBallGrey-v0",
                               {{"variant", I{GoToRedBallEnv::kGreyDists}}});
  registry.Add<GoToRedBallEnv>(b + "GoToRedBall-v0");
  registry.Add<GoToRedBallEnv>(
      b + "GoToRedBallNoDists-v0",
      {{"variant", I{GoToRedBallEnv::kNoDists}}, {"num_dists", I{0}}});
  registry.Add<GoToObjEnv>(b + "GoToObj-v0");
  registry.Add<GoToObjEnv>(b + "GoToObjS4-v0", {{"room_size", I{4}}});
  registry.Add<GoToObjEnv>(b + "GoToObjS6-v1", {{"room_size", I{6}}});
  registry.Add<GoToLocalEnv>(b + "GoToLocal-v0");
  for (auto [s, n] : {std::pair<I, I>{5, 2},
                      {6, 2},
                      {6, 3},
                      {6, 4},
                      {7, 4},
                      {7, 5},
                      {8, 2},
                      {8, 3},
                      {8, 4},
                      {8, 5},
                      {8, 6},
                      {8, 7}}) {
    registry.Add<GoToLocalEnv>(
        b + "GoToLocalS" + std::to_string(s) + "N" + std::to_string(n) + "-v0",
        {{"room_size", s}, {"num_dists", n}});
  }
  registry.Add<GoToEnv>(b + "GoTo-v0");
  registry.Add<GoToEnv>(b + "GoToOpen-v0", {{"doors_open", true}});
  registry.Add<GoToEnv>(b + "GoToObjMaze-v0", {{"num_dists", I{1}}});
  registry.Add<GoToEnv>(b + "GoToObjMazeOpen-v0",
                        {{"num_dists", I{1}}, {"doors_open", true}});
  registry.Add<GoToEnv>(b + "GoToObjMazeS4R2-v0", {{"num_dists", I{1}},
                                                   {"room_size", I{4}},
                                                   {"num_rows", I{2}},
                                                   {"num_cols", I{2}}});
  for (I s : {4, 5, 6, 7}) {
    registry.Add<GoToEnv>(b + "GoToObjMazeS" + std::to_string(s) + "-v0",
                          {{"num_dists", I{1}}, {"room_size", s}});
  }
  registry.Add<GoToImpUnlockEnv>(b + "GoToImpUnlock-v0");
  registry.Add<LevelGenEnv>(b + "GoToSeq-v0",
                            {{"variant", I{LevelGenEnv::kGoToSeq}},
                             {"locked_room_prob", 0.0},
                             {"locations", false},
                             {"unblocking", false}});
  registry.Add<LevelGenEnv>(b + "GoToSeqS5R2-v0",
                            {{"variant", I{LevelGenEnv::kGoToSeq}},
                             {"locked_room_prob", 0.0},
                             {"locations", false},
                             {"unblocking", false},
                             {"room_size", I{5}},
                             {"num_rows", I{2}},
                             {"num_cols", I{2}},
                             {"num_dists", I{4}}});
  registry.Add<GoToRedBlueBallEnv>(b + "GoToRedBlueBall-v0");
  registry.Add<GoToDoorEnv>(b + "GoToDoor-v0");
  registry.Add<GoToObjDoorEnv>(b + "GoToObjDoor-v0");
  // open.py
  registry.Add<OpenEnv>(b + "Open-v0");
  registry.Add<OpenRedDoorEnv>(b + "OpenRedDoor-v0");
  registry.Add<OpenDoorEnv>(b + "OpenDoor-v0");
  registry.Add<OpenDoorEnv>(b + "OpenDoorDebug-v0", {{"debug", true}});
  registry.Add<OpenDoorEnv>(b + "OpenDoorColor-v0",
                            {{"select_by", std::string("color")}});
  registry.Add<OpenDoorEnv>(b + "OpenDoorLoc-v0",
                            {{"select_by", std::string("loc")}});
  registry.Add<OpenTwoDoorsEnv>(b + "OpenTwoDoors-v0");
  registry.Add<OpenTwoDoorsEnv>(b + "OpenRedBlueDoors-v0",
                                {{"first_color", std::string("red")},
                                 {"second_color", std::string("blue")}});
  registry.Add<OpenTwoDoorsEnv>(b + "OpenRedBlueDoorsDebug-v0",
                                {{"first_color", std::string("red")},
                                 {"second_color", std::string("blue")},
                                 {"strict", true}});
  for (I n : {2, 4}) {
    const std::string id = b + "OpenDoorsOrderN" + std::to_string(n);
    registry.Add<OpenDoorsOrderEnv>(id + "-v0", {{"num_doors", n}});
    registry.Add<OpenDoorsOrderEnv>(id + "Debug-v0",
                                    {{"num_doors", n}, {"debug", true}});
  }
  // pickup.py
  registry.Add<PickupEnv>(b + "Pickup-v0");
  registry.Add<PickupEnv>(b + "UnblockPickup-v0", {{"variant", I{1}}});
  registry.Add<LevelGenEnv>(b + "PickupLoc-v0",
                            {{"variant", I{LevelGenEnv::kPickupAction}},
                             {"num_rows", I{1}},
                             {"num_cols", I{1}},
                             {"num_dists", I{8}},
                             {"locked_room_prob", 0.0},
                             {"unblocking", false}});
  registry.Add<PickupDistEnv>(b + "PickupDist-v0");
  registry.Add<PickupDistEnv>(b + "PickupDistDebug-v0", {{"debug", true}});
  registry.Add<PickupAboveEnv>(b + "PickupAbove-v0");
  // putnext.py
  registry.Add<PutNextLocalEnv>(b + "PutNextLocal-v0");
  registry.Add<PutNextLocalEnv>(b + "PutNextLocalS5N3-v0",
                                {{"room_size", I{5}}, {"num_objs", I{3}}});
  registry.Add<PutNextLocalEnv>(b + "PutNextLocalS6N4-v0",
                                {{"room_size", I{6}}, {"num_objs", I{4}}});
  for (auto [s, n] : {std::pair<I, I>{4, 1}, {5, 2}, {5, 1}, {6, 3}, {7, 4}}) {
    const std::string id =
        b + "PutNextS" + std::to_string(s) + "N" + std::to_string(n);
    registry.Add<PutNextEnv>(id + "-v0",
                             {{"room_size", s}, {"objs_per_room", n}});
    if (n >= 2) {
      registry.Add<PutNextEnv>(
          id + "Carrying-v0",
          {{"room_size", s}, {"objs_per_room", n}, {"start_carrying", true}});
    }
  }
  // unlock.py
  registry.Add<UnlockEnv>(b + "Unlock-v0");
  registry.Add<UnlockLocalEnv>(b + "UnlockLocal-v0");
  registry.Add<UnlockLocalEnv>(b + "UnlockLocalDist-v0",
                               {{"distractors", true}});
  registry.Add<UnlockLocalEnv>(b + "KeyInBox-v0", {{"variant", I{1}}});
  registry.Add<UnlockPickupEnv>(b + "UnlockPickup-v0");
  registry.Add<UnlockPickupEnv>(b + "UnlockPickupDist-v0",
                                {{"distractors", true}});
  registry.Add<UnlockPickupEnv>(b + "BlockedUnlockPickup-v0",
                                {{"variant", I{UnlockPickupEnv::kBlocked}}});
  registry.Add<UnlockPickupEnv>(
      b + "UnlockToUnlock-v0",
      {{"variant", I{UnlockPickupEnv::kUnlockToUnlock}}});
  // other.py
  registry.Add<ActionObjDoorEnv>(b + "ActionObjDoor-v0");
  for (I s : {5, 6, 7}) {
    registry.Add<FindObjEnv>(b + "FindObjS" + std::to_string(s) + "-v0",
                             {{"room_size", s}});
  }
  registry.Add<KeyCorridorEnv>(b + "KeyCorridor-v0");
  for (auto [s, r] :
       {std::pair<I, I>{3, 1}, {3, 2}, {3, 3}, {4, 3}, {5, 3}, {6, 3}}) {
    registry.Add<KeyCorridorEnv>(b + "KeyCorridorS" + std::to_string(s) + "R" +
                                     std::to_string(r) + "-v0",
                                 {{"room_size", s}, {"num_rows", r}});
  }
  for (I s : {8, 12, 16, 20}) {
    registry.Add<OneRoomEnv>(b + "OneRoomS" + std::to_string(s) + "-v0",
                             {{"room_size", s}});
  }
  registry.Add<MoveTwoAcrossEnv>(
      b + "MoveTwoAcrossS5N2-v0",
      {{"room_size", I{5}}, {"objs_per_room", I{2}}});
  registry.Add<MoveTwoAcrossEnv>(
      b + "MoveTwoAcrossS8N9-v0",
      {{"room_size", I{8}}, {"objs_per_room", I{9}}});
  // synth.py
  const Config synth = {{"variant", I{LevelGenEnv::kActionOnly}},
                        {"locations", false},
                        {"implicit_unlock", false}};
  registry.Add<LevelGenEnv>(b + "Synth-v0", synth);
  Config synth_s5r2 = synth;
  synth_s5r2.Set("room_size", I{5});
  synth_s5r2.Set("num_rows", I{2});
  registry.Add<LevelGenEnv>(b + "SynthS5R2-v0", synth_s5r2);
  registry.Add<LevelGenEnv>(
      b + "SynthLoc-v0",
      {{"variant", I{LevelGenEnv::kActionOnly}}, {"implicit_unlock", false}});
  registry.Add<LevelGenEnv>(b + "SynthSeq-v0", {{"implicit_unlock", false}});
  registry.Add<LevelGenEnv>(b + "MiniBossLevel-v0",
                            {{"num_cols", I{2}},
                             {"num_rows", I{2}},
                             {"room_size", I{5}},
                             {"num_dists", I{7}},
                             {"locked_room_prob", 0.25}});
  registry.Add<LevelGenEnv>(b + "BossLevel-v0");
  registry.Add<LevelGenEnv>(
      b + "BossLevelNoUnlock-v0",
      {{"locked_room_prob", 0.0}, {"implicit_unlock", false}});
}

}  // namespace babyai
}  // namespace minigrid
}  // namespace envpool_lite
