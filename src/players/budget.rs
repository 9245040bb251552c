//! When a search must stop: the deadline, the node count and the signals that end it early, as
//! the searching players (level 10's tree, the conventional searcher) spend them node by node.
//!
//! The clock and the flags are read every so many nodes (reading the clock costs more than a
//! node of a small search); the node count is exact, since UCI `go nodes N` and XBoard's `nps`
//! × `st` are promises about node counts.

use super::{SearchLimits, StopSignal};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// What a search may spend, and what tells it to stop.
#[derive(Clone, Default)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub nodes: Option<u64>,
    /// Raised by the protocol's reader thread when the GUI wants the move now.
    pub stop: Option<StopSignal>,
    /// With more than one search thread: the nodes all of them searched, each adding its own
    /// as it checks the budget, so that a node budget is the threads' together.
    pub shared_nodes: Option<Arc<AtomicU64>>,
    /// A helper thread's end: raised by the main thread once it has decided.
    pub halt: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// The budget of a search begun at `start` within `limits`: their hard time and nodes.
    pub fn within(limits: &SearchLimits, start: Instant, stop: Option<StopSignal>) -> Budget {
        Budget { deadline: limits.hard_time.map(|t| start + t), nodes: limits.nodes, stop, ..Budget::default() }
    }

    /// Whether `counted` nodes, now, are past the budget, or a flag says stop.
    fn spent_at(&self, counted: u64) -> bool {
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        let many = self.nodes.is_some_and(|n| counted >= n);
        let told = self.stop.as_ref().is_some_and(|s| s.is_raised())
            || self.halt.as_ref().is_some_and(|h| h.load(Ordering::Relaxed));
        late || many || told
    }
}

/// One search's (one thread's) spending of a budget: looks at it every `every` nodes, and
/// at the node budget itself when that comes sooner.
pub struct Spending {
    budget: Budget,
    every: u64,
    /// The node count at which to look again.
    next_check: u64,
    /// The nodes already added to the budget's shared count.
    published: u64,
    /// Set once the budget ran out; it stays so until the next `start`.
    stopped: bool,
}

impl Spending {
    /// Nothing to spend yet (`start` hands the budget over), looked at every `every` nodes.
    pub fn new(every: u64) -> Spending {
        Spending { budget: Budget::default(), every, next_check: 0, published: 0, stopped: false }
    }

    /// A new search, of no nodes so far, within `budget`.
    pub fn start(&mut self, budget: Budget) {
        self.budget = budget;
        self.next_check = 0;
        self.published = 0;
        self.stopped = false;
    }

    /// True once the budget ran out, with `nodes` searched so far by this search: looks at the
    /// clock and the flags only every so many nodes, and never again once it said stop.
    #[inline]
    pub fn spent(&mut self, nodes: u64) -> bool {
        if !self.stopped && nodes >= self.next_check {
            self.look(nodes);
        }
        self.stopped
    }

    fn look(&mut self, nodes: u64) {
        let counted = match &self.budget.shared_nodes {
            Some(shared) => {
                let all = shared.fetch_add(nodes - self.published, Ordering::Relaxed);
                let all = all + nodes - self.published;
                self.published = nodes;
                all
            }
            None => nodes,
        };
        self.next_check = match self.budget.nodes {
            Some(n) => nodes + self.every.min(n.saturating_sub(counted)),
            None => nodes + self.every,
        };
        self.stopped = self.budget.spent_at(counted);
    }

    /// Whether the budget ran out (as `spent` last found).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The nodes searched so far, `nodes` by this search and, when several threads share the
    /// budget, those the others added.
    pub fn all_nodes(&self, nodes: u64) -> u64 {
        match &self.budget.shared_nodes {
            Some(shared) => shared.load(Ordering::Relaxed) + nodes - self.published,
            None => nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A node budget is kept to the node, however seldom the clock is read.
    #[test]
    fn a_node_budget_is_exact() {
        for limit in [0, 1, 5, 100, 1000, 1024, 1500] {
            let mut spending = Spending::new(1024);
            spending.start(Budget { nodes: Some(limit), ..Budget::default() });
            let mut nodes = 0;
            while !spending.spent(nodes) {
                nodes += 1;
            }
            assert_eq!(nodes, limit);
            assert!(spending.stopped() && spending.spent(0), "a spent budget stays spent");
            spending.start(Budget::default());
            assert!(!spending.spent(nodes), "a new search starts afresh");
        }
    }

    /// The clock and the flags are read at the first node and then every `every` nodes.
    #[test]
    fn the_clock_and_the_flags_are_read_every_so_many_nodes() {
        let signal = StopSignal::default();
        signal.begin(true);
        let mut spending = Spending::new(256);
        spending.start(Budget { stop: Some(signal.clone()), ..Budget::default() });
        assert!(!spending.spent(0));
        signal.raise(false);
        assert!(!spending.spent(255), "not looked at before 256 nodes");
        assert!(spending.spent(256));
        let past = Instant::now() - Duration::from_secs(1);
        spending.start(Budget { deadline: Some(past), ..Budget::default() });
        assert!(spending.spent(0), "past the deadline");
        let halt = Arc::new(AtomicBool::new(false));
        spending.start(Budget { halt: Some(Arc::clone(&halt)), ..Budget::default() });
        assert!(!spending.spent(0));
        halt.store(true, Ordering::Relaxed);
        assert!(spending.spent(256), "halted");
    }

    /// Threads sharing a budget count their nodes together, each adding its own as it looks.
    #[test]
    fn threads_spend_a_node_budget_together() {
        let shared = Arc::new(AtomicU64::new(0));
        let budget = Budget { nodes: Some(1000), shared_nodes: Some(Arc::clone(&shared)), ..Budget::default() };
        let (mut a, mut b) = (Spending::new(256), Spending::new(256));
        a.start(budget.clone());
        b.start(budget);
        assert!(!a.spent(0) && !b.spent(0));
        assert!(!a.spent(600));
        assert_eq!((a.all_nodes(600), b.all_nodes(300)), (600, 900));
        assert!(b.spent(400), "600 and 400 make the thousand");
        assert_eq!(shared.load(Ordering::Relaxed), 1000);
    }

    #[test]
    fn a_budget_within_limits_takes_their_hard_time_and_nodes() {
        let start = Instant::now();
        let limits = SearchLimits {
            soft_time: Some(Duration::from_secs(1)),
            hard_time: Some(Duration::from_secs(3)),
            nodes: Some(42),
            ..SearchLimits::default()
        };
        let budget = Budget::within(&limits, start, None);
        assert_eq!((budget.deadline, budget.nodes), (Some(start + Duration::from_secs(3)), Some(42)));
        assert!(budget.shared_nodes.is_none() && budget.halt.is_none());
    }
}
