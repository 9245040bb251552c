//! The game review behind `agentchess annotate`: a game judged move by move, its mistakes
//! marked and explained.
//!
//! A judge (level 10's tree, or any player that searches) looks at every position of the game
//! once, at a fixed budget: its score there is what the side to move could keep with the best
//! move, its line is the better move and what follows. A move's loss is the winning chances
//! (`chances`) between the position's score before it and the score after it, both from the
//! mover's side; the mark follows from the loss. For each marked move the agents say why
//! (`agents::critique`), from the judge's better line and the opponent's answer.
//!
//! `summary` counts the marks per player, `pgn_out` writes the game back with the evaluations,
//! marks, better lines and reasons, and `page` draws it as one HTML page.

mod board;
pub mod chances;
mod chart;
mod page;

pub mod pgn_out;
pub mod summary;
pub mod table;

pub use page::page;

use crate::agents::{Critique, Hindsight, critique};
use crate::board::pgn_reader::PgnGame;
use crate::board::{Game, Move, Position};
use crate::players::{Player, SearchLimits};
use chances::{Mark, Scale, Score};

/// The judge's view of one position: its score from the side to move, and its line (empty
/// when the game is over there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub score: Score,
    pub line: Vec<Move>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveNote {
    /// Its index in the game (0 for the first move).
    pub ply: usize,
    /// The position before it.
    pub pos: Position,
    pub mv: Move,
    pub san: String,
    /// The position's score before the move, from the mover's side: what the best move keeps.
    pub before: Score,
    /// The score after the move played, from the mover's side.
    pub after: Score,
    /// Winning chances the move lost (0 when it was the judge's move, or gained).
    pub loss: f64,
    pub mark: Option<Mark>,
    /// The judge's line from the position before the move (its better move first).
    pub better: Vec<Move>,
    /// The judge's line after the move played (the opponent's answer first).
    pub reply: Vec<Move>,
    /// Why, for a marked move, when the agents can say.
    pub critique: Option<Critique>,
    /// What the judge's centipawns are worth on the winning-chances map.
    pub scale: Scale,
}

impl MoveNote {
    /// The judge preferred another move.
    pub fn has_better(&self) -> bool {
        self.better.first().is_some_and(|&b| b != self.mv)
    }

    /// The mover: White when the ply's position has White to move.
    pub fn mover(&self) -> crate::board::Color {
        self.pos.side_to_move()
    }

    /// `score`'s winning chances in percent, by this judge's scale.
    pub fn percent(&self, score: Score) -> f64 {
        self.scale.percent(score)
    }

    /// "12." or "12..." for this move.
    pub fn number(&self) -> String {
        let n = self.pos.fullmove_number();
        match self.mover() {
            crate::board::Color::White => format!("{n}."),
            crate::board::Color::Black => format!("{n}..."),
        }
    }
}

/// A game judged: the game as read, a note for every move, and the score after the last.
#[derive(Clone, Debug)]
pub struct Annotated {
    pub game: PgnGame,
    pub notes: Vec<MoveNote>,
    /// How the judge was set ("level:10, 250000 nodes a position").
    pub judge: String,
}

impl Annotated {
    /// A player's name from the tags ("?" when the tag is missing).
    pub fn player(&self, color: crate::board::Color) -> &str {
        let tag = if color == crate::board::Color::White { "White" } else { "Black" };
        self.game.tag(tag).filter(|s| !s.is_empty()).unwrap_or("?")
    }
}

/// The judge's view of the game's last position in `game` (which may be over).
pub fn view(judge: &mut dyn Player, game: &Game, limits: &SearchLimits) -> View {
    let pos = game.position();
    if let Some(outcome) = game.outcome() {
        let score = match outcome.winner() {
            Some(w) if w == pos.side_to_move() => Score::Won,
            Some(_) => Score::Lost,
            None => Score::Cp(0),
        };
        return View { score, line: Vec::new() };
    }
    match judge.decide_within(game, limits) {
        Some(d) => {
            let score = match d.mate {
                Some(n) if n != 0 => Score::Mate(n),
                _ => Score::Cp(d.score),
            };
            let line = if d.pv.is_empty() { vec![d.mv] } else { d.pv };
            View { score, line: legal_prefix(pos, &line) }
        }
        None => View { score: Score::Cp(0), line: Vec::new() },
    }
}

/// The part of `line` that is legal from `pos` (a judge's line could end in a move of a
/// position it did not check).
fn legal_prefix(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut at = *pos;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !at.is_legal(m) {
            break;
        }
        out.push(m);
        at = at.play(m);
    }
    out
}

/// What the judging of games tells a progress bar. Work is counted in first looks: a position
/// looked at again at N times the budget is N of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tick {
    /// A position judged, `cost` first looks' worth.
    Judged { cost: usize },
    /// `positions` more to be judged at `cost` first looks each (a second look's round).
    Planned { positions: usize, cost: usize },
}

/// Every position of `game` judged by `judge` within `limits`, `tick` told of each.
pub fn judge_game(
    game: &PgnGame,
    judge: &mut dyn Player,
    limits: &SearchLimits,
    tick: &mut dyn FnMut(Tick),
) -> Vec<View> {
    judge.new_game();
    let mut played = Game::new(game.start);
    let mut views = Vec::with_capacity(game.moves.len() + 1);
    views.push(view(judge, &played, limits));
    tick(Tick::Judged { cost: 1 });
    for &mv in &game.moves {
        played.play(mv);
        views.push(view(judge, &played, limits));
        tick(Tick::Judged { cost: 1 });
    }
    views
}

/// The notes of a game from the judge's views of its positions (`views[i]` before move `i`,
/// the last after the last move), the judge's centipawns worth `scale` on the map.
pub fn notes(game: &PgnGame, views: &[View], scale: Scale) -> Vec<MoveNote> {
    let mut pos = game.start;
    let mut notes = Vec::with_capacity(game.moves.len());
    for (ply, &mv) in game.moves.iter().enumerate() {
        let (now, next) = (&views[ply], &views[ply + 1]);
        notes.push(note(ply, pos, mv, now, next, scale));
        pos = pos.play(mv);
    }
    notes
}

/// The winning chances `mv` lost between the judge's views before it (`now`) and after it
/// (`next`): none when it was the judge's own move, or when it gained.
pub fn loss(mv: Move, now: &View, next: &View, scale: Scale) -> f64 {
    if now.line.first() == Some(&mv) {
        return 0.0;
    }
    (scale.chances(now.score) - scale.chances(next.score.flip())).max(0.0)
}

/// One move judged: its loss, mark, and for a marked move the agents' reason.
pub fn note(ply: usize, pos: Position, mv: Move, now: &View, next: &View, scale: Scale) -> MoveNote {
    let (before, after) = (now.score, next.score.flip());
    let loss = loss(mv, now, next, scale);
    let mark = Mark::for_loss(loss);
    let critique = mark.and_then(|_| {
        let mate = |s: Score| match s {
            Score::Mate(n) if n > 0 => Some(n as u32),
            _ => None,
        };
        critique(&Hindsight {
            pos,
            played: mv,
            better: &now.line,
            better_mate: mate(now.score),
            reply: &next.line,
            reply_mate: mate(next.score),
        })
    });
    MoveNote {
        ply,
        pos,
        mv,
        san: pos.to_san(mv),
        before,
        after,
        loss,
        mark,
        better: now.line.clone(),
        reply: next.line.clone(),
        critique,
        scale,
    }
}

/// How the judge judges: its budget a position, its name as the PGN and page give it, what
/// its centipawns are worth on the winning-chances map, and its second look.
#[derive(Clone, Debug)]
pub struct Judging {
    pub limits: SearchLimits,
    pub name: String,
    pub scale: Scale,
    pub second_look: Option<SecondLook>,
}

/// A deeper look at the costly moves. A judge at a small budget errs most where a move seems
/// to cost the most (a refutation seen on one side of the move and not on the other), and
/// those are the moves a reader reads; judging the two positions around each of them again,
/// deeper, costs a share of the game's time.
#[derive(Clone, Debug)]
pub struct SecondLook {
    /// The budget of a position looked at again.
    pub limits: SearchLimits,
    /// A move losing at least this much is looked at again.
    pub from_loss: f64,
    /// How many first looks one second look costs (its budget over the first's).
    pub cost: usize,
}

/// A game judged and noted.
pub fn annotate(game: &PgnGame, judge: &mut dyn Player, judging: &Judging, tick: &mut dyn FnMut(Tick)) -> Annotated {
    let mut views = judge_game(game, judge, &judging.limits, tick);
    if let Some(second) = &judging.second_look {
        let cost = second.cost;
        let tick = std::cell::RefCell::new(tick);
        look_again(
            game,
            &mut views,
            judging.scale,
            second,
            &mut |positions| (tick.borrow_mut())(Tick::Planned { positions, cost }),
            &mut |game| {
                let v = view(judge, game, &second.limits);
                (tick.borrow_mut())(Tick::Judged { cost });
                v
            },
        );
    }
    Annotated { game: game.clone(), notes: notes(game, &views, judging.scale), judge: judging.name.clone() }
}

/// The views around every move losing at least `second.from_loss`, judged again by `judge`
/// (given the game up to the position), until every such move has second views on both sides:
/// a deeper view can make a neighbouring move costly, which is then looked at too. Each
/// position is looked at again at most once. `plan` hears how many positions each round
/// looks at before it begins. Returns the positions looked at again.
pub fn look_again(
    game: &PgnGame,
    views: &mut [View],
    scale: Scale,
    second: &SecondLook,
    plan: &mut dyn FnMut(usize),
    judge: &mut dyn FnMut(&Game) -> View,
) -> Vec<usize> {
    let mut again = vec![false; views.len()];
    let mut looked = Vec::new();
    loop {
        let mut todo: Vec<usize> = game
            .moves
            .iter()
            .enumerate()
            .filter(|&(ply, &mv)| loss(mv, &views[ply], &views[ply + 1], scale) >= second.from_loss)
            .flat_map(|(ply, _)| [ply, ply + 1])
            .filter(|&i| !again[i])
            .collect();
        todo.dedup();
        if todo.is_empty() {
            return looked;
        }
        plan(todo.len());
        // `todo` ascends: one replay of the game reaches every position in it.
        let mut played = Game::new(game.start);
        let mut at = 0;
        for i in todo {
            for &mv in &game.moves[at..i] {
                played.play(mv);
            }
            at = i;
            views[i] = judge(&played);
            again[i] = true;
            looked.push(i);
        }
    }
}

/// Every game of `games` annotated on `threads` workers, a game to a worker at a time, each
/// worker with its own judge from `make_judge`. `tick` hears of every position judged;
/// `done` gets each game as it is finished (in finishing order, with its index in `games`).
pub fn annotate_all(
    games: &[PgnGame],
    make_judge: &(dyn Fn() -> Box<dyn Player> + Sync),
    judging: &Judging,
    threads: usize,
    tick: &(dyn Fn(Tick) + Sync),
    done: &(dyn Fn(usize, Annotated) + Sync),
) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, games.len().max(1)) {
            scope.spawn(|| {
                let mut judge = make_judge();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    done(i, annotate(game, judge.as_mut(), judging, &mut |t| tick(t)));
                }
            });
        }
    });
}

/// SAN of `line` from `pos`, with move numbers ("12. Bxf7+ Ke7 13. Bb3"), at most `plies`.
pub fn line_san(pos: &Position, line: &[Move], plies: usize) -> String {
    let mut at = *pos;
    let mut words = Vec::new();
    for (i, &m) in line.iter().take(plies).enumerate() {
        let n = at.fullmove_number();
        match at.side_to_move() {
            crate::board::Color::White => words.push(format!("{n}. {}", at.to_san(m))),
            crate::board::Color::Black if i == 0 => words.push(format!("{n}... {}", at.to_san(m))),
            crate::board::Color::Black => words.push(at.to_san(m)),
        }
        at = at.play(m);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: &str, moves: &[&str]) -> PgnGame {
        let start = Position::from_fen(fen).unwrap();
        let mut at = start;
        let moves: Vec<_> = moves
            .iter()
            .map(|t| {
                let m = at.parse_move(t).unwrap();
                at = at.play(m);
                m
            })
            .collect();
        PgnGame {
            number: 1,
            line: 1,
            tags: Vec::new(),
            start,
            comments: vec![String::new(); moves.len()],
            moves,
            result: "*".into(),
        }
    }

    fn view(score: Score, line: &[Move]) -> View {
        View { score, line: line.to_vec() }
    }

    #[test]
    fn a_move_loses_the_chances_between_the_scores_around_it() {
        // White hangs the knight: even before, a knight down after.
        let g = game("4k3/8/7p/8/8/5N2/8/4K3 w - - 0 1", &["Ng5"]);
        let after = g.start.play(g.moves[0]);
        let reply = after.parse_move("hxg5").unwrap();
        let kd2 = g.start.parse_move("Kd2").unwrap();
        let views = [view(Score::Cp(20), &[kd2]), view(Score::Cp(280), &[reply])];
        let n = &notes(&g, &views, Scale::SAME)[0];
        assert_eq!((n.before, n.after), (Score::Cp(20), Score::Cp(-280)));
        assert!(n.loss > 0.3, "{}", n.loss);
        assert_eq!(n.mark, Some(Mark::Blunder));
        assert!(n.has_better());
        assert_eq!(n.critique.as_ref().map(|c| c.motif), Some(crate::agents::Motif::Hanging));
        assert_eq!(n.number(), "1.");
    }

    #[test]
    fn the_judges_own_move_loses_nothing() {
        let g = game("4k3/8/7p/8/8/5N2/8/4K3 w - - 0 1", &["Kd2"]);
        let kd2 = g.moves[0];
        // The judge's score after it is worse than before (a deeper look): no loss all the same.
        let views = [view(Score::Cp(20), &[kd2]), view(Score::Cp(400), &[])];
        let n = &notes(&g, &views, Scale::SAME)[0];
        assert_eq!((n.loss, n.mark, n.has_better()), (0.0, None, false));
    }

    #[test]
    fn a_second_look_goes_around_costly_moves_and_those_it_makes_costly() {
        let g = game("4k3/8/7p/8/8/5N2/8/4K3 w - - 0 1", &["Ng5", "hxg5", "Kd2", "Ke7"]);
        let positions: Vec<Position> =
            (0..=g.moves.len()).map(|i| g.moves[..i].iter().fold(g.start, |p, &m| p.play(m))).collect();
        let other = |i: usize| positions[i].legal_moves().iter().copied().find(|&m| m != g.moves[i]).unwrap();
        // The first look: only White's first move is costly (even, then a knight down).
        let mut views = vec![
            view(Score::Cp(0), &[other(0)]),
            view(Score::Cp(300), &[g.moves[1]]),
            view(Score::Cp(-300), &[other(2)]),
            view(Score::Cp(300), &[g.moves[3]]),
            view(Score::Cp(-300), &[]),
        ];
        // The second look before hxg5 prefers another move and more: hxg5 becomes costly.
        let deeper = |i: usize| match i {
            0 => view(Score::Cp(0), &[other(0)]),
            1 => view(Score::Cp(900), &[other(1)]),
            _ => view(Score::Cp(if i.is_multiple_of(2) { -300 } else { 300 }), &[other(i)]),
        };
        let second = SecondLook { limits: SearchLimits::default(), from_loss: 0.1, cost: 4 };
        let mut asked = Vec::new();
        let mut rounds = Vec::new();
        let looked = look_again(&g, &mut views, Scale::SAME, &second, &mut |n| rounds.push(n), &mut |played: &Game| {
            let i = positions.iter().position(|p| p == played.position()).unwrap();
            asked.push(i);
            deeper(i)
        });
        assert_eq!(looked, vec![0, 1, 2]);
        assert_eq!(rounds, vec![2, 1], "each round planned before it begins");
        assert_eq!(asked, looked);
        assert_eq!(views[1].score, Score::Cp(900));
        assert_eq!(views[3].score, Score::Cp(300), "a move costing nothing is not looked at again");
        let losses: Vec<f64> = (0..4).map(|i| loss(g.moves[i], &views[i], &views[i + 1], Scale::SAME)).collect();
        assert!(losses[0] > 0.3 && losses[1] > 0.1 && losses[3] < 0.1, "{losses:?}");
    }

    #[test]
    fn lines_are_written_with_move_numbers_and_cut_where_illegal() {
        let pos = Position::startpos();
        let mut at = pos;
        let mut line: Vec<Move> = ["e2e4", "e7e5", "g1f3"]
            .iter()
            .map(|m| {
                let mv = at.parse_uci(m).unwrap();
                at = at.play(mv);
                mv
            })
            .collect();
        line.push(pos.parse_uci("e2e4").unwrap());
        let line = legal_prefix(&pos, &line);
        assert_eq!(line.len(), 3);
        assert_eq!(line_san(&pos, &line, 8), "1. e4 e5 2. Nf3");
        assert_eq!(line_san(&pos.play(line[0]), &line[1..], 8), "1... e5 2. Nf3");
    }
}
