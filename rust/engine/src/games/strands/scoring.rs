//! Scoring: each player's group sizes sorted from largest, compared position by position (a
//! missing group counting 0). The comparison at the end of every playout stops flooding groups
//! as soon as the answer is certain.

use super::Strands;
use crate::game::{Player, Position};
use std::cmp::Ordering;

impl Strands {
    /// Black's sorted group sizes against White's. Most games are decided by the largest groups
    /// alone, and those are known once the stones not yet grouped are too few to form another
    /// as large; only when they tie are all groups counted.
    #[inline(always)]
    pub(super) fn compare_groups(&self) -> Ordering {
        let black = self.largest_groups(self.black, None);
        let white = self.largest_groups(self.white, Some(black));
        if black != white {
            black.cmp(&white)
        } else {
            self.compare_all_groups()
        }
    }

    /// The size of a player's largest group (0 without stones).
    pub fn largest_group(&self, player: Player) -> u32 {
        self.board.groups(self.stones(player)).map(u128::count_ones).max().unwrap_or(0)
    }

    /// The size of the largest group of `stones` and how many groups have that size, compared
    /// with `rival`'s (the other player's): exact when equal, and ordered like the truth when
    /// not, since the scan stops as soon as the answer to the comparison is certain.
    #[inline(always)]
    fn largest_groups(&self, stones: u128, rival: Option<(u32, u32)>) -> (u32, u32) {
        let rival_largest = rival.map_or(0, |(size, _)| size);
        let beaten = rival.map_or(u32::MAX, |(size, _)| size);
        let (mut groups, mut largest, mut count) = (self.board.groups(stones), 0, 0);
        // Stones left fewer than both the largest group so far and the rival's largest: nothing
        // left can matter.
        while groups.remaining().count_ones() >= largest.max(rival_largest).max(1) {
            let Some(group) = groups.next() else { break };
            let size = group.count_ones();
            if size > beaten {
                return (size, 1);
            }
            count = if size > largest { 1 } else { count + (size == largest) as u32 };
            largest = largest.max(size);
        }
        (largest, count)
    }

    /// Black's sorted group sizes against White's, in full. That is comparing how many groups of
    /// each size they have, from the largest size down: the first size where the counts differ
    /// goes to whoever has more groups of it. So count, don't sort.
    fn compare_all_groups(&self) -> Ordering {
        let mut surplus = [0i8; 128];
        for (stones, one) in [(self.black, 1), (self.white, -1)] {
            for group in self.board.groups(stones) {
                surplus[group.count_ones() as usize - 1] += one;
            }
        }
        surplus.iter().rev().find(|&&d| d != 0).map_or(Ordering::Equal, |d| d.cmp(&0))
    }

    /// Group sizes of a player, largest first.
    pub fn group_sizes(&self, player: Player) -> Vec<u32> {
        let mut sizes: Vec<u32> = self.board.groups(self.stones(player)).map(u128::count_ones).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The margin of a finished game for the side to move (the search's score): at the first
    /// place where the two sorted lists of group sizes differ, the mover's size minus the
    /// other's (a missing group counting 0); 0 when they never differ, a draw. Its sign is the
    /// outcome's, as the comparison above decides it.
    pub fn final_margin(&self) -> i32 {
        let (mine, theirs) = (self.group_sizes(self.to_move()), self.group_sizes(self.to_move().other()));
        let size = |sizes: &[u32], i: usize| sizes.get(i).copied().unwrap_or(0) as i32;
        (0..mine.len().max(theirs.len())).map(|i| size(&mine, i) - size(&theirs, i)).find(|&d| d != 0).unwrap_or(0)
    }
}
