//! The search tree both searches grow: UCT over compound moves (`mcts`) and PUCT / Gumbel over
//! step actions (`puct`).
//!
//! Nodes live in one arena (`Vec`), addressed by 32-bit ids, the root at 0; children are a linked
//! list, newest first, so a node gains children one at a time, as simulations first reach them
//! (UCT's expansion and progressive widening, PUCT's lazy children). Every node says who *chose*
//! the edge into it (`mover`) and keeps its statistics from that player's point of view: a parent picks among children whose
//! statistics are all its own player's, whoever moves next below them. That is what lets a
//! player move several times in a row (Reversi passes, Rive's extra placements, Strands' cells
//! of one turn) with nothing special anywhere.

use crate::game::Player;

/// No node (the end of a child list).
pub const NONE: u32 = u32::MAX;

/// One node: the search's own data, the tree links and the statistics.
#[derive(Debug, Clone)]
pub struct Node<E> {
    pub data: E,
    /// The player who chose the edge into this node; `total` is from their point of view.
    pub mover: Player,
    first_child: u32,
    next_sibling: u32,
    pub children: u32,
    pub visits: u64,
    /// The sum of the rewards backed up through this node, for `mover`.
    pub total: f64,
}

impl<E> Node<E> {
    fn new(data: E, mover: Player) -> Self {
        Node { data, mover, first_child: NONE, next_sibling: NONE, children: 0, visits: 0, total: 0.0 }
    }

    /// The mean reward for `mover`; `None` before the first visit.
    pub fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| self.total / self.visits as f64)
    }
}

/// A tree of nodes carrying `E`.
#[derive(Debug, Clone)]
pub struct Arena<E> {
    nodes: Vec<Node<E>>,
}

/// The id of the root.
pub const ROOT: u32 = 0;

impl<E> Arena<E> {
    /// A tree of one node.
    pub fn new(root: E, mover: Player) -> Self {
        Arena { nodes: vec![Node::new(root, mover)] }
    }

    #[allow(clippy::len_without_is_empty)] // a tree is never empty: it has its root
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The children of `node`, newest first.
    pub fn children(&self, node: u32) -> Children<'_, E> {
        Children { arena: self, next: self.nodes[node as usize].first_child }
    }

    /// Adds a child to `parent` (listed first from now on) and returns its id.
    pub fn add_child(&mut self, parent: u32, data: E, mover: Player) -> u32 {
        let id = self.nodes.len() as u32;
        let mut child = Node::new(data, mover);
        child.next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(child);
        let p = &mut self.nodes[parent as usize];
        p.first_child = id;
        p.children += 1;
        id
    }

    /// Adds `reward_of(node.mover)` to every node of `path` and counts a visit.
    pub fn back_up(&mut self, path: &[u32], reward_of: impl Fn(Player) -> f64) {
        for &id in path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.total += reward_of(n.mover);
        }
    }

    /// The subtree under `node` as a tree of its own (its root `node`), children in the same
    /// order; `moved` is called on every node carried over, in the new tree's order (so that a
    /// search can carry side data along, such as UCT's untried moves).
    pub fn subtree(&self, node: u32, mut moved: impl FnMut(&mut E)) -> Arena<E>
    where
        E: Clone,
    {
        let mut nodes: Vec<Node<E>> = Vec::new();
        let mut queue = std::collections::VecDeque::from([(node, NONE)]);
        while let Some((old, parent)) = queue.pop_front() {
            let id = nodes.len() as u32;
            let mut copy = self.nodes[old as usize].clone();
            let children: Vec<u32> = self.children(old).collect();
            (copy.first_child, copy.next_sibling, copy.children) = (NONE, NONE, 0);
            moved(&mut copy.data);
            nodes.push(copy);
            if parent != NONE {
                // Children are listed newest first: copying them oldest first and prepending
                // each keeps that order.
                let p = &mut nodes[parent as usize];
                let sibling = std::mem::replace(&mut p.first_child, id);
                p.children += 1;
                nodes[id as usize].next_sibling = sibling;
            }
            queue.extend(children.into_iter().rev().map(|c| (c, id)));
        }
        Arena { nodes }
    }
}

impl<E> std::ops::Index<u32> for Arena<E> {
    type Output = Node<E>;
    fn index(&self, id: u32) -> &Node<E> {
        &self.nodes[id as usize]
    }
}

impl<E> std::ops::IndexMut<u32> for Arena<E> {
    fn index_mut(&mut self, id: u32) -> &mut Node<E> {
        &mut self.nodes[id as usize]
    }
}

/// The children of a node, newest first.
pub struct Children<'a, E> {
    arena: &'a Arena<E>,
    next: u32,
}

impl<E> Iterator for Children<'_, E> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        let id = self.next;
        (id != NONE).then(|| {
            self.next = self.arena.nodes[id as usize].next_sibling;
            id
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_are_listed_newest_first_and_a_subtree_keeps_that_order() {
        let mut tree = Arena::new('r', Player::White);
        let a = tree.add_child(ROOT, 'a', Player::Black);
        let b = tree.add_child(ROOT, 'b', Player::Black);
        let a1 = tree.add_child(a, '1', Player::White);
        let a2 = tree.add_child(a, '2', Player::White);
        assert_eq!(tree.children(ROOT).collect::<Vec<_>>(), [b, a]);
        assert_eq!(tree.children(a).collect::<Vec<_>>(), [a2, a1]);
        let sub = tree.subtree(a, |_| {});
        assert_eq!(sub.len(), 3);
        assert_eq!(sub[ROOT].data, 'a');
        assert_eq!(sub.children(ROOT).map(|c| sub[c].data).collect::<String>(), "21");
    }

    #[test]
    fn backing_up_credits_each_node_for_the_player_who_chose_it() {
        let mut tree = Arena::new((), Player::White);
        let black = tree.add_child(ROOT, (), Player::Black);
        let black_again = tree.add_child(black, (), Player::Black);
        tree.back_up(&[ROOT, black, black_again], |p| if p == Player::Black { 1.0 } else { 0.0 });
        assert_eq!((tree[ROOT].visits, tree[ROOT].total), (1, 0.0));
        assert_eq!(tree[black_again].mean(), Some(1.0));
        assert_eq!(tree[black].mean(), Some(1.0));
    }
}
