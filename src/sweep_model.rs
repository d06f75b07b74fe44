//! The sweep panel's whole state and the pure function that moves it: the two axes, the
//! scrubbed field and its step, the overlays shown, the cell under the cursor, a range typed
//! wrong, and the map last drawn. Nothing here touches the browser, so it is tested natively;
//! `ui::explore::sweep` only dispatches [`Msg`]s and renders.
//!
//! Every value of a map comes from `ptxlab_core::sweep` (evaluated on the instruction's
//! [`Plan`], made once per instruction); this module
//! only decides which grid to evaluate, and when. The grid is evaluated on opening, on a
//! change of axis, grid or scrubbed step, on the Draw button, and when the text overlay is
//! turned on over a map drawn without the text's reading; never on an edit of the main view.

use std::rc::Rc;

use ptxlab_core::ast::SOURCE_NAMES;
use ptxlab_core::sweep::{
    case_at, default_axes, suggest_axes, sweep_with, Sweep, SweepAxis, MAX_STEPS,
};
use ptxlab_core::trace::{Flag, Views};
use ptxlab_core::Instruction;
use ptxlab_core::{Inputs, Plan};

use crate::model::Action;
use crate::ui::explore::heat::{self, Overlay};

/// Grid sizes offered: steps along each axis.
pub const GRIDS: [u32; 5] = [64, 128, 256, 512, 1024];

/// The sweep view's settings as the address carries them in `sweep=`:
/// `x:<axis>;y:<axis>;o:<overlays>;s:<axis>.<step>` where an axis is
/// `<operand>.<lo>.<width>.<start hex>.<step hex>.<steps>` (the field `width` bits wide at bit
/// `lo` of operand `a`, `b`, `c` or `e`, and its range), the overlays are their keys joined by
/// `.` (`clamped`, `masked`, `wrapped`, `text`), and `s:` is the scrubbed field with the
/// slider's step (absent: the main view's value). The grid size is the two axes' steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    pub x: Option<SweepAxis>,
    pub y: Option<SweepAxis>,
    pub overlays: Option<Vec<Overlay>>,
    pub scrub: Option<(SweepAxis, u32)>,
}

fn axis_text(a: &SweepAxis) -> String {
    format!(
        "{}.{}.{}.{:x}.{:x}.{}",
        SOURCE_NAMES[a.operand.min(3)],
        a.lo,
        a.width,
        a.start,
        a.step,
        a.len()
    )
}

/// An axis written as [`axis_text`] writes it, if it names one of `choices` and its range is
/// in bounds.
fn read_axis(choices: &[SweepAxis], s: &str) -> Option<SweepAxis> {
    let p: Vec<&str> = s.split('.').collect();
    if p.len() != 6 {
        return None;
    }
    let operand = SOURCE_NAMES.iter().position(|n| *n == p[0])?;
    let lo: u32 = p[1].parse().ok()?;
    let width: u32 = p[2].parse().ok()?;
    let start = u64::from_str_radix(p[3], 16).ok()?;
    let step = u64::from_str_radix(p[4], 16).ok()?;
    let steps: u32 = p[5].parse().ok()?;
    if steps == 0 || steps > MAX_STEPS {
        return None;
    }
    let c = choices
        .iter()
        .find(|c| c.operand == operand && c.lo == lo && c.width == width)?;
    Some(c.clone().with_range(start, step, steps))
}

impl Spec {
    /// The text for the address.
    pub fn text(
        x: &SweepAxis,
        y: &SweepAxis,
        shown: &[Overlay],
        scrub: Option<&(SweepAxis, u32)>,
    ) -> String {
        let o: Vec<&str> = shown.iter().map(|o| o.key()).collect();
        let mut s = format!("x:{};y:{};o:{}", axis_text(x), axis_text(y), o.join("."));
        if let Some((a, i)) = scrub {
            s.push_str(&format!(";s:{}.{i}", axis_text(a)));
        }
        s
    }

    /// Read the settings for `insn`; parts that do not read or do not fit it are left out.
    pub fn read(text: &str, insn: &Instruction) -> Spec {
        let choices = axis_choices(insn);
        let mut spec = Spec::default();
        for part in text.split(';') {
            let Some((k, v)) = part.split_once(':') else {
                continue;
            };
            match k {
                "x" => spec.x = read_axis(&choices, v),
                "y" => spec.y = read_axis(&choices, v),
                "o" => {
                    spec.overlays = Some(
                        Overlay::ALL
                            .into_iter()
                            .filter(|o| v.split('.').any(|k| k == o.key()))
                            .collect(),
                    )
                }
                "s" => {
                    spec.scrub = v.rsplit_once('.').and_then(|(a, i)| {
                        let a = read_axis(&choices, a)?;
                        let i: u32 = i.parse().ok()?;
                        (i < a.len()).then_some((a, i))
                    })
                }
                _ => {}
            }
        }
        spec
    }
}

/// The axis a slider scrubs by default: the first field that is neither axis.
pub fn default_scrub(choices: &[SweepAxis], x: &SweepAxis, y: &SweepAxis) -> Option<SweepAxis> {
    choices
        .iter()
        .find(|a| !same_field(a, x) && !same_field(a, y))
        .cloned()
}

/// `a` over `steps` steps covering the same values: every value for small fields, evenly
/// spaced ones otherwise (more steps than values wrap around the field).
pub fn with_grid(a: &SweepAxis, steps: u32) -> SweepAxis {
    let steps = steps.clamp(1, MAX_STEPS);
    let span = if a.width >= 64 {
        u128::from(u64::MAX) + 1
    } else {
        1u128 << a.width
    };
    let step = (span / u128::from(steps)).max(1) as u64;
    a.clone().with_range(a.start, step, steps)
}

/// A drawn map and what it was drawn from.
#[derive(Debug, PartialEq)]
pub struct Drawn {
    pub sweep: Sweep,
    pub insn: Rc<Instruction>,
    pub base: Inputs,
    pub x: SweepAxis,
    pub y: SweepAxis,
    pub signed: bool,
    pub range: (i128, i128),
    /// The scrubbed field and its step, written into `base`.
    pub scrub: Option<(SweepAxis, u32)>,
    /// Whether the ISA text's reading was compared (the text overlay needs it).
    pub text: bool,
    /// Cells each overlay marks, in [`Overlay::ALL`] order.
    pub counts: [usize; 4],
    pub eval_ms: f64,
    /// When the draw started, on the clock of [`Env::clock`] (for the whole draw's time).
    pub started_ms: f64,
    /// Counts draws, so the canvas is repainted once per new map.
    pub generation: u64,
}

/// The axis choices for an instruction: the suggested fields, with the default pair included.
pub fn axis_choices(insn: &Instruction) -> Vec<SweepAxis> {
    let mut all = suggest_axes(insn);
    let (x, y) = default_axes(insn);
    for a in [x, y] {
        if !all.iter().any(|b| same_field(b, &a)) {
            all.push(a);
        }
    }
    all
}

/// Whether two axes sweep the same bits of the same operand (ranges aside).
pub fn same_field(a: &SweepAxis, b: &SweepAxis) -> bool {
    a.operand == b.operand && a.lo == b.lo && a.width == b.width && a.label == b.label
}

/// Read a range typed for an axis: start (hex, decimal or negative), step, number of steps.
pub fn read_range(
    axis: &SweepAxis,
    start: &str,
    step: &str,
    steps: &str,
) -> Result<SweepAxis, String> {
    let start = ptxlab_core::batch::parse_operand_value(start, axis.width)
        .map_err(|e| format!("start: {e}"))?;
    let step = ptxlab_core::batch::parse_operand_value(step, axis.width)
        .map_err(|e| format!("step: {e}"))?;
    let n: u32 = steps
        .trim()
        .parse()
        .map_err(|_| format!("steps: a whole number from 1 to {MAX_STEPS}"))?;
    if n == 0 || n > MAX_STEPS {
        return Err(format!("steps: a whole number from 1 to {MAX_STEPS}"));
    }
    Ok(axis.clone().with_range(start, step, n))
}

pub fn hex_of(v: u64, bits: u32) -> String {
    Views::of(v, bits).hex
}

/// The words shown for one cell: where it is on each axis, every source, `d` and the flags.
pub fn case_lines(d: &Drawn, col: u32, row: u32) -> Vec<(String, String)> {
    let w = d.insn.widths();
    let inputs = case_at(&d.base, &d.x, &d.y, col, row);
    let arr = inputs.as_array();
    let mut out = vec![
        (d.x.label.clone(), d.x.value(col).to_string()),
        (d.y.label.clone(), d.y.value(row).to_string()),
    ];
    for (i, name) in SOURCE_NAMES.iter().enumerate().take(w.sources.min(4)) {
        out.push((name.to_string(), hex_of(arr[i], w.src[i])));
    }
    if let Some(v) = d.sweep.d_at(col, row) {
        out.push(("d".into(), hex_of(v, d.sweep.dst_bits)));
    }
    let flags = d.sweep.flags_at(col, row).unwrap_or(0);
    let names: Vec<&str> = Flag::ALL
        .iter()
        .filter(|f| u32::from(flags) & f.bit() != 0)
        .filter(|f| !matches!(f, Flag::SignExtended | Flag::ZeroExtended))
        .map(|f| f.name())
        .collect();
    if !names.is_empty() {
        out.push(("events".into(), names.join(", ")));
    }
    out
}

/// The actions that load a cell's case into the main view: the operands the axes write.
pub fn load_actions(d: &Drawn, col: u32, row: u32) -> Vec<Action> {
    let now = case_at(&d.base, &d.x, &d.y, col, row).as_array();
    let mut srcs = vec![d.x.operand.min(3), d.y.operand.min(3)];
    if let Some((a, _)) = &d.scrub {
        srcs.push(a.operand.min(3));
    }
    srcs.sort_unstable();
    srcs.dedup();
    srcs.into_iter()
        .map(|src| Action::SetValue {
            src,
            value: now[src],
        })
        .collect()
}

/// Whether two instructions are the same one, however spaced: their canonical texts agree
/// (an instruction keeps where each word and operand was written, which spacing moves).
fn same_instruction(a: &Instruction, b: &Instruction) -> bool {
    a.canonical() == b.canonical()
}

/// Whether a drawn map still shows `insn` over `inputs`: the same instruction and axes, and the
/// same operands apart from the swept fields (loading a case from the map keeps it current).
pub fn map_holds(
    d: &Drawn,
    insn: &Instruction,
    inputs: &Inputs,
    x: &SweepAxis,
    y: &SweepAxis,
) -> bool {
    same_instruction(&d.insn, insn)
        && d.x == *x
        && d.y == *y
        && case_at(&d.base, x, y, 0, 0) == case_at(inputs, x, y, 0, 0)
}

/// A value at an end of the colour scale: hex for unsigned results, decimal for signed ones.
pub fn legend_value(v: i128, bits: u32, signed: bool) -> String {
    if signed {
        v.to_string()
    } else {
        hex_of(v as u64, bits)
    }
}

/// Which axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    X,
    Y,
}

impl Role {
    /// The name shown and used in element ids: `x`, `y`.
    pub fn name(self) -> &'static str {
        match self {
            Role::X => "x",
            Role::Y => "y",
        }
    }
}

/// The moments of a draw the clock is read at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Before the grid is evaluated.
    Start,
    /// After the grid is evaluated.
    Evaluated,
}

/// What a message is applied with: the main view's instruction and sources, and a clock (the
/// page's performance clock, which also marks the moment; any function natively).
#[derive(Clone)]
pub struct Env {
    pub insn: Rc<Instruction>,
    /// The instruction decoded once ([`Instruction::plan`]): every draw runs on it.
    pub plan: Rc<Plan>,
    pub inputs: Inputs,
    /// Whether `d` reads as a signed number (for the colour scale).
    pub signed: bool,
    pub clock: fn(Moment) -> f64,
}

/// The sweep panel's state.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepState {
    /// The instruction the settings below are for, in canonical form.
    pub canon: String,
    /// The fields that can be an axis or be scrubbed ([`axis_choices`]).
    pub choices: Rc<Vec<SweepAxis>>,
    pub x: SweepAxis,
    pub y: SweepAxis,
    /// The field the slider scrubs (the first field that is neither axis, unless chosen).
    pub scrub: Option<SweepAxis>,
    /// The slider's step (`None`: the main view's value).
    pub scrub_at: Option<u32>,
    /// The overlays shown, in [`Overlay::ALL`] order.
    pub shown: Vec<Overlay>,
    /// The cell under the pointer or the keyboard cursor.
    pub cursor: Option<(u32, u32)>,
    /// A range typed for an axis that does not read, and why.
    pub range_error: Option<(Role, String)>,
    /// The map last drawn (it may be of an earlier instruction or other operands).
    pub drawn: Option<Rc<Drawn>>,
    /// Maps drawn so far.
    pub generation: u64,
    /// How long the last map whose painting was reported took ([`Msg::Painted`]).
    pub timing: Option<Timing>,
}

/// How long a map took, on the clock of [`Env::clock`]: evaluating its grid, and the whole draw
/// from the start of the evaluation to the canvas painted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// The map timed ([`Drawn::generation`]).
    pub generation: u64,
    pub eval_ms: f64,
    pub total_ms: f64,
}

/// What happens to the sweep panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// The panel opened: draw the first map.
    Open,
    /// The main view's instruction changed: its axes and scrubbed field by default, no draw.
    Retarget,
    /// An axis was picked from the list or its range typed (`Err`: the message for the range).
    Pick(Role, Result<SweepAxis, String>),
    /// Both axes over this many steps.
    Grid(u32),
    /// The slider scrubs this field, from the main view's value.
    ScrubField(SweepAxis),
    /// The slider moved to this step.
    Scrub(u32),
    /// Show or hide an overlay.
    Toggle(Overlay),
    /// The Draw button.
    Draw,
    /// The pointer is over this cell (`None`: it left the map).
    Cursor(Option<(u32, u32)>),
    /// A key pressed on the map: the arrow keys move the cursor (by 16 with Shift).
    Key { key: String, shift: bool },
    /// The canvas shows map `generation`, painted at `at_ms` (read by the page from the clock
    /// of [`Env::clock`]): its first painting times its whole draw.
    Painted { generation: u64, at_ms: f64 },
}

impl SweepState {
    /// The state when the panel opens on `insn`, with the settings an address carried
    /// (`sweep=`, see [`Spec`]); parts that do not fit the instruction are left out. No map yet:
    /// apply [`Msg::Open`] to draw it.
    pub fn new(insn: &Instruction, spec: Option<&str>) -> SweepState {
        let from = spec.map(|t| Spec::read(t, insn)).unwrap_or_default();
        let choices = Rc::new(axis_choices(insn));
        let (dx, dy) = default_axes(insn);
        let (x, y) = (from.x.unwrap_or(dx), from.y.unwrap_or(dy));
        let (scrub, scrub_at) = match from.scrub {
            Some((a, i)) => (Some(a), Some(i)),
            None => (default_scrub(&choices, &x, &y), None),
        };
        SweepState {
            canon: insn.canonical(),
            choices,
            x,
            y,
            scrub,
            scrub_at,
            shown: from
                .overlays
                .unwrap_or_else(|| vec![Overlay::Clamped, Overlay::TextDiffers]),
            cursor: None,
            range_error: None,
            drawn: None,
            generation: 0,
            timing: None,
        }
    }

    /// The settings for the address (`sweep=`).
    pub fn spec_text(&self) -> String {
        Spec::text(&self.x, &self.y, &self.shown, self.scrub_now().as_ref())
    }

    /// The scrubbed field with the slider's step, when the slider was moved.
    pub fn scrub_now(&self) -> Option<(SweepAxis, u32)> {
        self.scrub.clone().zip(self.scrub_at)
    }

    /// Whether the text overlay is shown (maps are then drawn with the text's reading).
    pub fn text_on(&self) -> bool {
        self.shown.contains(&Overlay::TextDiffers)
    }

    /// Grid size: the larger of the axes' steps.
    pub fn grid(&self) -> u32 {
        self.x.len().max(self.y.len())
    }

    /// Whether the map no longer shows the main view's case: another instruction, other
    /// operands outside the swept fields, or other axes.
    pub fn stale(&self, insn: &Instruction, inputs: &Inputs) -> bool {
        self.drawn.as_ref().is_some_and(|d| {
            let mut now = *inputs;
            if let Some((a, i)) = &d.scrub {
                a.apply(&mut now, *i);
            }
            !map_holds(d, insn, &now, &self.x, &self.y)
        })
    }

    /// The map whose cells can be loaded into the main view: one of the same instruction.
    pub fn loadable(&self, insn: &Instruction) -> Option<Rc<Drawn>> {
        self.drawn
            .clone()
            .filter(|d| same_instruction(&d.insn, insn))
    }

    /// The state after `msg`, evaluated in `env`.
    pub fn apply(mut self, env: &Env, msg: Msg) -> SweepState {
        if msg == Msg::Retarget || self.canon != env.insn.canonical() {
            self.retarget(&env.insn);
        }
        match msg {
            Msg::Open | Msg::Draw => self.draw(env),
            Msg::Retarget => {}
            Msg::Pick(role, Err(e)) => self.range_error = Some((role, e)),
            Msg::Pick(role, Ok(a)) => {
                self.range_error = None;
                match role {
                    Role::X => self.x = a,
                    Role::Y => self.y = a,
                }
                self.draw(env);
            }
            Msg::Grid(n) => {
                self.x = with_grid(&self.x, n);
                self.y = with_grid(&self.y, n);
                self.draw(env);
            }
            Msg::ScrubField(a) => {
                self.scrub = Some(a);
                self.scrub_at = None;
            }
            Msg::Scrub(i) => {
                if let Some(a) = &self.scrub {
                    self.scrub_at = Some(i.min(a.len() - 1));
                    self.draw(env);
                }
            }
            Msg::Toggle(o) => {
                if let Some(i) = self.shown.iter().position(|x| *x == o) {
                    self.shown.remove(i);
                } else {
                    // Kept in the order of Overlay::ALL.
                    let shown = std::mem::take(&mut self.shown);
                    self.shown = Overlay::ALL
                        .into_iter()
                        .filter(|x| *x == o || shown.contains(x))
                        .collect();
                }
                // The text overlay over a map drawn without the text's reading: draw again.
                if self.text_on() && self.drawn.as_ref().is_some_and(|d| !d.text) {
                    self.draw(env);
                }
            }
            Msg::Cursor(cell) => self.cursor = cell,
            Msg::Painted { generation, at_ms } => {
                let first = self.timing.is_none_or(|t| t.generation < generation);
                if let Some(d) = self.drawn.as_ref().filter(|d| d.generation == generation) {
                    if first {
                        self.timing = Some(Timing {
                            generation,
                            eval_ms: d.eval_ms,
                            total_ms: at_ms - d.started_ms,
                        });
                    }
                }
            }
            Msg::Key { key, shift } => {
                if let Some(d) = &self.drawn {
                    let (w, h) = (d.sweep.width, d.sweep.height);
                    let (c, r) = self.cursor.unwrap_or((0, 0));
                    let big = if shift { 16 } else { 1 };
                    let next = match key.as_str() {
                        "ArrowLeft" => Some((c.saturating_sub(big), r)),
                        "ArrowRight" => Some(((c + big).min(w - 1), r)),
                        "ArrowUp" => Some((c, r.saturating_sub(big))),
                        "ArrowDown" => Some((c, (r + big).min(h - 1))),
                        _ => None,
                    };
                    if next.is_some() {
                        self.cursor = next;
                    }
                }
            }
        }
        self
    }

    /// The axes and scrubbed field of another instruction: its defaults.
    fn retarget(&mut self, insn: &Instruction) {
        let canon = insn.canonical();
        if canon == self.canon {
            return;
        }
        let choices = Rc::new(axis_choices(insn));
        let (x, y) = default_axes(insn);
        self.scrub = default_scrub(&choices, &x, &y);
        self.scrub_at = None;
        self.choices = choices;
        self.x = x;
        self.y = y;
        self.range_error = None;
        self.canon = canon;
    }

    /// Evaluate the grid of the current axes over the main view's sources (with the scrubbed
    /// step written in), and keep it as the new map.
    fn draw(&mut self, env: &Env) {
        let text = self.text_on();
        let scrub = self.scrub_now();
        let started_ms = (env.clock)(Moment::Start);
        let mut base = env.inputs;
        if let Some((a, i)) = &scrub {
            a.apply(&mut base, *i);
        }
        // A program instruction has one reading (the ISA text's): its map is the text's.
        let s = sweep_with(&env.plan, &env.insn, &base, &self.x, &self.y, text);
        let eval_ms = (env.clock)(Moment::Evaluated) - started_ms;
        let range = heat::value_range(&s, env.signed);
        let mut counts = [0usize; 4];
        let any = Overlay::ALL.iter().fold(0u16, |m, o| m | o.mask());
        if s.flags_seen & any != 0 {
            // Most cells carry no flag: one test each, the overlays only where one is set.
            for &f in s.flags.iter().filter(|&&f| f & any != 0) {
                for (n, o) in counts.iter_mut().zip(Overlay::ALL) {
                    *n += usize::from(f & o.mask() != 0);
                }
            }
        }
        self.generation += 1;
        self.drawn = Some(Rc::new(Drawn {
            sweep: s,
            insn: env.insn.clone(),
            base,
            x: self.x.clone(),
            y: self.y.clone(),
            signed: env.signed,
            range,
            scrub,
            text,
            counts,
            eval_ms,
            started_ms,
            generation: self.generation,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::insn::check;
    use ptxlab_core::sweep::sweep;

    /// The main view's environment for `ptx` over `inputs`, with a clock that reads 0.
    fn env(ptx: &str, inputs: Inputs) -> Env {
        let insn = Rc::new(check(ptx).unwrap());
        Env {
            plan: Rc::new(insn.plan()),
            insn,
            inputs,
            signed: false,
            clock: |_| 0.0,
        }
    }

    const VADD: &str = "vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;";

    #[test]
    fn the_first_painting_of_each_map_times_its_draw() {
        // A clock that reads 100 ms when a draw starts and 104 ms once the grid is evaluated.
        let mut e = env(VADD, BASE);
        e.clock = |m| match m {
            Moment::Start => 100.0,
            Moment::Evaluated => 104.0,
        };
        let s = SweepState::new(&e.insn, None).apply(&e, Msg::Open);
        assert_eq!(
            s.timing, None,
            "nothing is timed before the canvas is painted"
        );
        let g = s.generation;
        let s = s.apply(
            &e,
            Msg::Painted {
                generation: g,
                at_ms: 110.0,
            },
        );
        let want = Timing {
            generation: g,
            eval_ms: 4.0,
            total_ms: 10.0,
        };
        assert_eq!(s.timing, Some(want));
        // Painting the same map again (an overlay toggled) keeps its first time.
        let s = s.apply(
            &e,
            Msg::Painted {
                generation: g,
                at_ms: 500.0,
            },
        );
        assert_eq!(s.timing, Some(want));
        // A painting reported for a map that is no longer the one drawn is ignored.
        let s = s.apply(&e, Msg::Draw);
        assert_eq!(
            s.timing,
            Some(want),
            "the last time stays until the new map is painted"
        );
        let s = s.apply(
            &e,
            Msg::Painted {
                generation: g,
                at_ms: 900.0,
            },
        );
        assert_eq!(s.timing, Some(want));
        let s = s.apply(
            &e,
            Msg::Painted {
                generation: g + 1,
                at_ms: 130.0,
            },
        );
        assert_eq!(
            s.timing,
            Some(Timing {
                generation: g + 1,
                eval_ms: 4.0,
                total_ms: 30.0,
            })
        );
    }
    const BASE: Inputs = Inputs {
        a: 0x1111_1111,
        b: 0x2222_2222,
        c: 0x3333_3333,
        e: 0,
    };

    fn opened(ptx: &str) -> (Env, SweepState) {
        let e = env(ptx, BASE);
        let s = SweepState::new(&e.insn, None).apply(&e, Msg::Open);
        (e, s)
    }

    #[test]
    fn opening_draws_the_default_axes_with_the_text_compared() {
        let (e, s) = opened(VADD);
        let (x, y) = default_axes(&e.insn);
        assert_eq!((&s.x, &s.y), (&x, &y));
        assert_eq!(s.shown, vec![Overlay::Clamped, Overlay::TextDiffers]);
        assert_eq!(s.generation, 1);
        let d = s.drawn.as_ref().unwrap();
        assert!(d.text);
        assert_eq!(d.generation, 1);
        assert_eq!(d.sweep.d.len() as u32, x.len() * y.len());
        // The counts are the cells each overlay marks.
        let clamped = d
            .sweep
            .flags
            .iter()
            .filter(|&&f| f & Overlay::Clamped.mask() != 0)
            .count();
        assert!(clamped > 0);
        assert_eq!(d.counts[0], clamped);
        // The cell the map shows for (0xff, 1) is the core's evaluation of that case.
        let want = e.insn.value(&case_at(&BASE, &x, &y, 0xff, 1));
        assert_eq!(d.sweep.d_at(0xff, 1), Some(want));
        assert!(!s.stale(&e.insn, &e.inputs));
    }

    #[test]
    fn settings_from_the_address_open_the_same_panel() {
        let (e, s) = opened(VADD);
        let s = s
            .apply(&e, Msg::Grid(64))
            .apply(&e, Msg::Toggle(Overlay::Wrapped))
            .apply(&e, Msg::Scrub(5));
        let text = s.spec_text();
        let again = SweepState::new(&e.insn, Some(&text));
        assert_eq!((&again.x, &again.y), (&s.x, &s.y));
        assert_eq!(again.shown, s.shown);
        assert_eq!(again.scrub_now(), s.scrub_now());
        assert_eq!(again.spec_text(), text);
        // Settings for another instruction fall back to its defaults, never a panic.
        let other = check("add.s32 d, a, b;").unwrap();
        let o = SweepState::new(&other, Some(&text));
        assert_eq!((o.x.clone(), o.y.clone()), default_axes(&other));
    }

    #[test]
    fn a_range_typed_wrong_is_kept_for_its_axis_and_draws_nothing() {
        let (e, s) = opened(VADD);
        let bad = read_range(&s.y, "0", "1", "0");
        let s = s.apply(&e, Msg::Pick(Role::Y, bad));
        assert_eq!(s.generation, 1);
        let (role, msg) = s.range_error.clone().unwrap();
        assert_eq!(role, Role::Y);
        assert!(msg.starts_with("steps:"), "{msg}");
        // A good range clears it and draws the new axis.
        let good = read_range(&s.y, "0x10", "2", "8").unwrap();
        let s = s.apply(&e, Msg::Pick(Role::Y, Ok(good.clone())));
        assert_eq!(s.range_error, None);
        assert_eq!(s.y, good);
        assert_eq!(s.generation, 2);
        assert_eq!(s.drawn.as_ref().unwrap().sweep.height, 8);
    }

    #[test]
    fn the_grid_sets_both_axes_and_draws() {
        let (e, s) = opened(VADD);
        let s = s.apply(&e, Msg::Grid(128));
        assert_eq!((s.x.len(), s.y.len(), s.grid()), (128, 128, 128));
        let d = s.drawn.as_ref().unwrap();
        assert_eq!((d.sweep.width, d.sweep.height), (128, 128));
        assert!(GRIDS.contains(&s.grid()));
    }

    #[test]
    fn scrubbing_writes_the_step_into_the_third_field() {
        let (e, s) = opened(VADD);
        let c = s.scrub.clone().expect("c is free");
        assert_eq!(c.operand, 2);
        // Choosing the field draws nothing; moving the slider draws, clamped to its steps.
        let s = s.apply(&e, Msg::ScrubField(c.clone()));
        assert_eq!((s.scrub_at, s.generation), (None, 1));
        let s = s.apply(&e, Msg::Scrub(1_000_000));
        assert_eq!(s.scrub_at, Some(c.len() - 1));
        assert_eq!(s.generation, 2);
        let d = s.drawn.clone().unwrap();
        let mut want = BASE;
        c.apply(&mut want, c.len() - 1);
        assert_eq!(d.base, want);
        // Loading a cell loads the scrubbed operand too; the map then still holds.
        let acts = load_actions(&d, 3, 4);
        assert_eq!(acts.len(), 3);
        assert!(!s.stale(&e.insn, &case_at(&d.base, &d.x, &d.y, 3, 4)));
    }

    #[test]
    fn the_text_overlay_draws_again_only_when_the_map_lacks_the_text() {
        let (e, s) = opened(VADD);
        // Off: the map is kept.
        let s = s.apply(&e, Msg::Toggle(Overlay::TextDiffers));
        assert_eq!(s.shown, vec![Overlay::Clamped]);
        assert_eq!(s.generation, 1);
        // A map drawn without the text, then the overlay on: drawn again with it.
        let s = s.apply(&e, Msg::Draw);
        assert!(!s.drawn.as_ref().unwrap().text);
        let s = s.apply(&e, Msg::Toggle(Overlay::TextDiffers));
        assert_eq!(s.generation, 3);
        assert!(s.drawn.as_ref().unwrap().text);
        // Overlays stay in their fixed order whatever the order they were turned on.
        let s = s.apply(&e, Msg::Toggle(Overlay::MaskedOff));
        let order: Vec<usize> = s
            .shown
            .iter()
            .map(|o| Overlay::ALL.iter().position(|x| x == o).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        assert_eq!(s.generation, 3);
    }

    #[test]
    fn keys_move_the_cursor_within_the_map() {
        let (e, s) = opened(VADD);
        let key = |s: SweepState, k: &str, shift: bool| {
            s.apply(
                &e,
                Msg::Key {
                    key: k.into(),
                    shift,
                },
            )
        };
        let s = key(s, "ArrowRight", false);
        assert_eq!(s.cursor, Some((1, 0)));
        let s = key(s, "ArrowDown", true);
        assert_eq!(s.cursor, Some((1, 16)));
        let s = key(s, "ArrowLeft", true);
        assert_eq!(s.cursor, Some((0, 16)));
        let (w, h) = {
            let d = s.drawn.as_ref().unwrap();
            (d.sweep.width, d.sweep.height)
        };
        let s = (0..40).fold(s, |s, _| key(s, "ArrowDown", true));
        assert_eq!(s.cursor, Some((0, h - 1)));
        let s = (0..40).fold(s, |s, _| key(s, "ArrowRight", true));
        assert_eq!(s.cursor, Some((w - 1, h - 1)));
        let s = key(s, "q", false);
        assert_eq!(s.cursor, Some((w - 1, h - 1)));
        let s = s.apply(&e, Msg::Cursor(None));
        assert_eq!(s.cursor, None);
    }

    #[test]
    fn another_instruction_takes_its_own_axes_and_keeps_the_old_map_until_draw() {
        let (_, s) = opened(VADD);
        let e2 = env("add.s32 d, a, b;", BASE);
        let s = s.apply(&e2, Msg::Retarget);
        let (x, y) = default_axes(&e2.insn);
        assert_eq!((&s.x, &s.y), (&x, &y));
        assert_eq!(s.canon, e2.insn.canonical());
        assert_eq!(s.generation, 1);
        assert!(s.stale(&e2.insn, &e2.inputs));
        assert!(s.loadable(&e2.insn).is_none());
        let s = s.apply(&e2, Msg::Draw);
        assert!(!s.stale(&e2.insn, &e2.inputs));
        assert!(s.loadable(&e2.insn).is_some());
        // Other operands in the main view make the map stale too.
        let mut other = BASE;
        other.b ^= 1 << 31;
        let e3 = env("add.s32 d, a, b;", other);
        let swept_b = s.y.operand == 1 && s.y.width == 32;
        assert_eq!(s.stale(&e3.insn, &e3.inputs), !swept_b);
    }

    fn drawn(ptx: &str, base: Inputs) -> Drawn {
        let insn = Rc::new(check(ptx).unwrap());
        let (x, y) = default_axes(&insn);
        let s = sweep(&insn, &base, &x, &y);
        Drawn {
            range: heat::value_range(&s, false),
            scrub: None,
            text: true,
            counts: [0; 4],
            sweep: s,
            insn,
            base,
            x,
            y,
            signed: false,
            eval_ms: 0.0,
            started_ms: 0.0,
            generation: 1,
        }
    }

    #[test]
    fn a_case_and_its_loading() {
        let d = drawn(
            "vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;",
            Inputs::new(0x1111_1111, 0x2222_2222, 0x3333_3333, 0),
        );
        let lines = case_lines(&d, 0xff, 0x01);
        let get = |k: &str| lines.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(get("a").as_deref(), Some("0x111111ff"));
        assert_eq!(get("b").as_deref(), Some("0x22012222"));
        assert_eq!(get("d").as_deref(), Some("0x333333ff"));
        assert!(get("events").unwrap().contains("clamped-high"));
        let acts = load_actions(&d, 0xff, 0x01);
        assert_eq!(
            acts,
            vec![
                Action::SetValue {
                    src: 0,
                    value: 0x1111_11ff
                },
                Action::SetValue {
                    src: 1,
                    value: 0x2201_2222
                }
            ]
        );
        // The map still holds after loading one of its cases; not after another c.
        let loaded = Inputs::new(0x1111_11ff, 0x2201_2222, 0x3333_3333, 0);
        assert!(map_holds(
            &d,
            &d.insn.clone(),
            &loaded,
            &d.x.clone(),
            &d.y.clone()
        ));
        let other_c = Inputs::new(0x1111_11ff, 0x2201_2222, 0x3333_3334, 0);
        assert!(!map_holds(
            &d,
            &d.insn.clone(),
            &other_c,
            &d.x.clone(),
            &d.y.clone()
        ));
        assert_eq!(legend_value(255, 32, false), "0x000000ff");
        assert_eq!(legend_value(-3, 32, true), "-3");
        // Loading the case into the state gives the d the map showed.
        let s = crate::model::State::new(
            "vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;",
            [0x1111_1111, 0x2222_2222, 0x3333_3333, 0],
        );
        let s = acts.into_iter().fold(s, |s, a| s.apply(a));
        assert_eq!(s.valid.unwrap().trace.views.hex, get("d").unwrap());
    }

    #[test]
    fn ranges_typed_for_an_axis() {
        let insn = check("add.s32 d, a, b;").unwrap();
        let choices = axis_choices(&insn);
        assert!(!choices.is_empty());
        let a = &choices[0];
        let r = read_range(a, "-16", "1", "32").unwrap();
        assert_eq!(r.len(), 32);
        assert_eq!(r.value(0), -16);
        assert!(read_range(a, "zz", "1", "32").is_err());
        assert!(read_range(a, "0", "1", "0").is_err());
        assert!(read_range(a, "0", "1", "5000").is_err());
    }

    #[test]
    fn settings_round_trip_through_the_address() {
        let insn = check("vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;").unwrap();
        let choices = axis_choices(&insn);
        let (x, y) = default_axes(&insn);
        let x = with_grid(&x, 1024);
        assert_eq!((x.len(), x.step), (1024, 1));
        let y = y.with_range(0x10, 2, 64);
        let sc = default_scrub(&choices, &x, &y).expect("c is free");
        assert_eq!(sc.operand, 2);
        let text = Spec::text(
            &x,
            &y,
            &[Overlay::Clamped, Overlay::Wrapped],
            Some(&(sc.clone(), 17)),
        );
        assert_eq!(
            text,
            "x:a.0.8.0.1.1024;y:b.16.8.10.2.64;o:clamped.wrapped;s:c.0.32.0.1000000.256.17"
        );
        let back = Spec::read(&text, &insn);
        assert_eq!(back.x.as_ref(), Some(&x));
        assert_eq!(back.y.as_ref(), Some(&y));
        assert_eq!(
            back.overlays,
            Some(vec![Overlay::Clamped, Overlay::Wrapped])
        );
        assert_eq!(back.scrub, Some((sc, 17)));
        // Parts that do not fit are left out, never a panic.
        let odd = Spec::read(
            "x:z.0.8.0.1.4;y:b.16.8.0.1.0;s:c.0.32.0.1.4.9;o:;junk;;q:1",
            &insn,
        );
        assert_eq!(odd.x, None);
        assert_eq!(odd.y, None);
        assert_eq!(odd.scrub, None);
        assert_eq!(odd.overlays, Some(vec![]));
        // A 32-bit field over 1024 steps: evenly spaced values.
        let c = with_grid(&choices[2], 1024);
        assert_eq!((c.step, c.len()), (1 << 22, 1024));
    }

    #[test]
    fn loading_a_scrubbed_case_loads_the_scrubbed_operand() {
        let mut d = drawn(
            "vadd.u32.u32.u32.sat d.b0, a.b0, b.b2, c;",
            Inputs::new(0x1111_1111, 0x2222_2222, 0x3333_3333, 0),
        );
        let sc = default_scrub(&axis_choices(&d.insn), &d.x, &d.y).unwrap();
        d.scrub = Some((sc, 3));
        let acts = load_actions(&d, 0, 0);
        assert_eq!(acts.len(), 3);
        assert!(acts.contains(&Action::SetValue {
            src: 2,
            value: 0x3333_3333
        }));
    }

    #[test]
    fn a_program_instruction_sweeps_over_its_own_axes() {
        const SHF: &str = "shf.l.wrap.b32 d, a, b, c;";
        let (e, s) = opened(SHF);
        assert!(e.plan.is_specialised());
        // The shift amount comes first, over 0 to a little past the width.
        assert_eq!(s.x.operand, 2);
        assert!(s.x.label.contains("shift amount"), "{}", s.x.label);
        assert_eq!(s.x.len(), 41);
        assert_ne!(s.y.operand, 2);
        let d = s.drawn.clone().unwrap();
        assert_eq!(d.sweep.d.len() as u32, s.x.len() * s.y.len());
        // Every cell is the core's evaluation of its case: the funnel's high word.
        for (col, row) in [(0, 0), (5, 17), (33, 200), (40, 255)] {
            let case = case_at(&d.base, &d.x, &d.y, col, row);
            assert_eq!(d.sweep.d_at(col, row), Some(e.insn.value(&case)));
            let n = case.c & 31;
            let pair = (u128::from(case.b & 0xffff_ffff) << 32) | u128::from(case.a & 0xffff_ffff);
            let want = ((pair << n) >> 32) as u64 & 0xffff_ffff;
            assert_eq!(d.sweep.d_at(col, row), Some(want), "{col} {row}");
        }
        // The settings round-trip through the address, and a grid change redraws.
        let again = SweepState::new(&e.insn, Some(&s.spec_text()));
        assert_eq!((&again.x, &again.y), (&s.x, &s.y));
        let s = s.apply(&e, Msg::Grid(64));
        assert_eq!(s.generation, 2);
        assert_eq!(s.drawn.as_ref().unwrap().sweep.width, 64);
        // Without a plan too, a map can be 1024 x 1024 (each cell evaluated without stages).
        let big = s.clone().apply(&e, Msg::Grid(1024));
        let bd = big.drawn.as_ref().unwrap();
        assert_eq!((bd.sweep.width, bd.sweep.height), (1024, 1024));
        assert_eq!((big.x.len(), big.y.len()), (1024, 1024));
        for (col, row) in [(0, 0), (517, 3), (1023, 1023)] {
            let case = case_at(&bd.base, &bd.x, &bd.y, col, row);
            assert_eq!(bd.sweep.d_at(col, row), Some(e.insn.value(&case)));
        }
        // A cell loads into the main view and the map then still holds.
        let d = s.drawn.clone().unwrap();
        assert!(!load_actions(&d, 3, 4).is_empty());
        assert!(!s.stale(&e.insn, &case_at(&d.base, &d.x, &d.y, 3, 4)));
        // The same instruction spaced otherwise is the same map, still loadable.
        let spaced = ptxlab_core::insn::check("shf.l.wrap.b32 d,a,  b, c;").unwrap();
        assert!(!s.stale(&spaced, &case_at(&d.base, &d.x, &d.y, 3, 4)));
        assert!(s.loadable(&spaced).is_some());
        assert!(case_lines(&d, 3, 4).iter().any(|(k, _)| k == "d"));

        // prmt: each selector nibble is an axis; the map is the byte each one picks.
        let (e, s) = opened("prmt.b32 d, a, b, c;");
        assert!(s.x.label.contains("nibble 0"), "{}", s.x.label);
        assert!(s.y.label.contains("nibble 1"), "{}", s.y.label);
        let d = s.drawn.clone().unwrap();
        assert_eq!((d.sweep.width, d.sweep.height), (16, 16));
        for (col, row) in [(0, 0), (3, 9), (15, 15)] {
            let case = case_at(&d.base, &d.x, &d.y, col, row);
            assert_eq!(d.sweep.d_at(col, row), Some(e.insn.value(&case)));
        }
    }
}
