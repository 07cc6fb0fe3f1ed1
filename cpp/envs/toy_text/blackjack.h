// Blackjack-v1, bit-exact with gymnasium 1.4.0's
// gymnasium/envs/toy_text/blackjack.py.
//
// Cards come from an infinite deck: draw_card is np_random.choice(deck)
// over 13 values (1 = ace, 2-9, four 10s), one bounded-integer draw each.
// reset() deals the dealer two cards, then the player two, then draws the
// dealer's face-up card's suit (choice of 4) and, for a 10, its face
// (choice of J, Q, K): gymnasium draws both for its picture, and they move
// the random stream, so they are drawn here too. Hit: one card; bust ends
// the episode with -1. Stick: the dealer draws to 17 or more, and the
// higher score wins (+1 / -1 / 0), with sab's and natural's rules for a
// natural blackjack.
//
// The observation is gymnasium's tuple (player sum, dealer's card, usable
// ace) as one int64 array of shape (3,).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "core/env.h"
#include "refkit/numpy/random.h"

namespace envpool_lite {

class BlackjackEnv : public Env {
 public:
  // gymnasium registers Blackjack-v1 with sab=True and no time limit (the
  // pool's max_episode_steps defaults to EnvPool's "none", 2**31 - 1).
  static Config DefaultConfig() {
    return {{"max_episode_steps", int64_t{std::numeric_limits<int32_t>::max()}},
            {"natural", false},
            {"sab", true}};
  }

  static EnvSpec MakeSpec(const Config& config) {
    config.GetBool("natural");  // type checks
    config.GetBool("sab");
    EnvSpec spec;
    // Tuple(Discrete(32), Discrete(11), Discrete(2)) as one array.
    spec.obs = MakeBox<int64_t>("obs", {3}, {0.0, 0.0, 0.0}, {31.0, 10.0, 1.0});
    spec.action = MakeDiscrete("action", 2);
    spec.max_episode_steps = config.GetInt("max_episode_steps", 1,
                                           std::numeric_limits<int32_t>::max());
    return spec;
  }

  BlackjackEnv(const Config& config, uint64_t seed)
      : natural_(config.GetBool("natural")),
        sab_(config.GetBool("sab")),
        rng_(seed) {}

  void Seed(uint64_t seed) override { rng_.Seed(seed); }

  void Reset() override {
    dealer_ = Hand();
    player_ = Hand();
    dealer_.Add(DrawCard());
    dealer_.Add(DrawCard());
    player_.Add(DrawCard());
    player_.Add(DrawCard());
    // dealer_top_card_suit = np_random.choice(["C", "D", "H", "S"])
    suit_ = static_cast<int>(rng_.Choice(4));
    // dealer_top_card_value_str: "A", a number, or choice(["J", "Q", "K"])
    face_ = dealer_.first == 10 ? static_cast<int>(rng_.Choice(3)) : -1;
  }

  StepResult Step(const void* action) override {
    const int32_t a = *static_cast<const int32_t*>(action);
    StepResult result;
    if (a != 0) {  // hit
      player_.Add(DrawCard());
      result.terminated = player_.IsBust();
      result.reward = result.terminated ? -1.0 : 0.0;
    } else {  // stick: the dealer plays, then the scores compare
      result.terminated = true;
      while (dealer_.Sum() < 17) dealer_.Add(DrawCard());
      const int player = player_.Score(), dealer = dealer_.Score();
      double reward = (player > dealer) - (player < dealer);  // cmp
      if (sab_ && player_.IsNatural() && !dealer_.IsNatural()) {
        reward = 1.0;
      } else if (!sab_ && natural_ && player_.IsNatural() && reward == 1.0) {
        reward = 1.5;
      }
      result.reward = reward;
    }
    return result;
  }

  // What gymnasium's renderer reads, from which Python rebuilds its
  // attributes: the player's hand as (sum of card values, holds an ace),
  // the dealer's face-up card, and that card's suit (0-3: C, D, H, S) and
  // face (0-2: J, Q, K; -1 when not a 10).
  std::vector<double> RenderState() const override {
    return {static_cast<double>(player_.total),
            static_cast<double>(player_.has_ace),
            static_cast<double>(dealer_.first), static_cast<double>(suit_),
            static_cast<double>(face_)};
  }

  void WriteObs(const Row& row) override {
    int64_t* obs = row.Obs<int64_t>();
    obs[0] = player_.Sum();
    obs[1] = dealer_.first;
    obs[2] = player_.UsableAce();
  }

  ENVPOOL_LITE_STATE(rng_, dealer_, player_, suit_, face_)

 private:
  // A hand, by what gymnasium's helpers read of it: the sum of its card
  // values (aces as 1), whether it holds an ace, its size and first card.
  struct Hand {
    int total = 0;
    bool has_ace = false;
    int cards = 0;
    int first = 0;

    void Add(int card) {
      if (cards == 0) first = card;
      total += card;
      has_ace |= card == 1;
      ++cards;
    }
    // usable_ace: an ace that can count 11 without busting.
    bool UsableAce() const { return has_ace && total + 10 <= 21; }
    int Sum() const { return UsableAce() ? total + 10 : total; }  // sum_hand
    bool IsBust() const { return Sum() > 21; }
    int Score() const { return IsBust() ? 0 : Sum(); }
    // sorted(hand) == [1, 10]
    bool IsNatural() const { return cards == 2 && has_ace && total == 11; }
  };

  // draw_card: int(np_random.choice(deck))
  int DrawCard() {
    static constexpr int kDeck[13] = {1, 2, 3,  4,  5,  6, 7,
                                      8, 9, 10, 10, 10, 10};
    return kDeck[rng_.Choice(13)];
  }

  bool natural_;
  bool sab_;
  NumpyRandom rng_;
  Hand dealer_;
  Hand player_;
  int suit_ = 0;
  int face_ = -1;
};

}  // namespace envpool_lite
