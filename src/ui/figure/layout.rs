//! Where every part of the pipeline figure goes, worked out from the trace and the width there
//! is (no DOM), so that its size can be tested natively.
//!
//! The figure is drawn at the size it is shown: one SVG unit is one CSS pixel, and every text
//! is at least [`Metrics::font`] pixels tall. What changes with the width is the layout, never
//! the scale: registers share a line while their cells stay wide enough for a digit, a
//! register too wide for the line shows its run of extension bits as one labelled cell or
//! wraps into rows (bit `b + 32` above bit `b`), and SIMD lanes stand side by side, two by two
//! or in one column.
//!
//! Bands run from top to bottom in stage order. The source registers share the first band, the
//! extensions that follow each other share one, per-lane stages stand in lane columns (the
//! highest lane at the left, like the bits of a register), and every other stage has a band of
//! its own. A clamp carries a number line beside its register, or below it where the register
//! leaves no room. Stages that combine several sources bit by bit (the truth-table rows of
//! `lop3`) stand one per line, fed by one wire per source that runs down their left side.

use ptxlab_core::provenance::Provenance;
use ptxlab_core::trace::{Detail, Flag, Flow, StageKind, Trace};

/// Text size on a page at least [`NARROW`] pixels wide.
pub const FONT: f64 = 11.0;
/// Text size on a narrower one (a phone).
pub const FONT_NARROW: f64 = 10.0;
/// Text size in present mode.
pub const FONT_PRESENT: f64 = 20.0;
/// Below this width the figure uses [`FONT_NARROW`].
pub const NARROW: f64 = 480.0;
/// The narrowest figure laid out.
pub const MIN_WIDTH: f64 = 240.0;

/// The room the figure has and the size of its text; every other size follows from these.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Width of the figure in CSS pixels (= SVG units).
    pub width: f64,
    /// Size of the smallest text, in CSS pixels.
    pub font: f64,
}

impl Metrics {
    /// The metrics for a figure `width` pixels wide, in present mode or on the page.
    pub fn new(width: f64, present: bool) -> Metrics {
        let width = width.max(MIN_WIDTH).floor();
        let font = if present {
            FONT_PRESENT
        } else if width < NARROW {
            FONT_NARROW
        } else {
            FONT
        };
        Metrics { width, font }
    }
    /// Width of one character of the figure's monospace text (a little more than the usual
    /// 0.6 em, so that a text measured with it never runs past its room).
    pub fn char_w(&self) -> f64 {
        0.62 * self.font
    }
    pub fn title_font(&self) -> f64 {
        (1.15 * self.font).round()
    }
    pub fn title_line(&self) -> f64 {
        1.4 * self.title_font()
    }
    pub fn label_h(&self) -> f64 {
        (1.4 * self.font).round()
    }
    /// Height of a bit cell.
    pub fn ch(&self) -> f64 {
        (1.5 * self.font).round()
    }
    /// Space below a register.
    pub fn gap(&self) -> f64 {
        (0.7 * self.font).round()
    }
    /// Space between the rows of a wrapped register.
    pub fn row_gap(&self) -> f64 {
        (0.3 * self.font).round()
    }
    /// Space above a band that wires reach into.
    pub fn wire_gap(&self) -> f64 {
        (1.5 * self.font).round()
    }
    /// Height of a clamp's number line.
    pub fn line_h(&self) -> f64 {
        (2.7 * self.font).round()
    }
    /// Room a number line needs beside its register.
    pub fn line_min_w(&self) -> f64 {
        22.0 * self.font
    }
    /// Horizontal space between registers side by side.
    pub fn hgap(&self) -> f64 {
        (1.6 * self.font).round()
    }
    /// Narrowest bit cell: a digit and a little air.
    pub fn cw_min(&self) -> f64 {
        0.6 * self.font + 2.5
    }
    /// Narrowest cell of registers that share a line.
    pub fn cw_pack(&self) -> f64 {
        0.85 * self.font + 3.0
    }
    /// Widest bit cell.
    pub fn cw_max(&self) -> f64 {
        1.5 * self.font
    }
    /// Height of a lane's title line.
    pub fn lane_title(&self) -> f64 {
        (1.5 * self.font).round()
    }
    /// Space inside a lane column, each side.
    pub fn pad(&self) -> f64 {
        (0.5 * self.font).round()
    }
    /// Space between two source wires of a truth table.
    pub fn bus_gap(&self) -> f64 {
        (1.3 * self.font).round()
    }
    /// The text of a cell that stands for `n` extension bits.
    pub fn ext_text(n: u32, signed: bool) -> String {
        format!("×{n} {}", if signed { "sign" } else { "zero" })
    }
    /// Width of that cell.
    pub fn ext_w(&self, n: u32, signed: bool) -> f64 {
        Self::ext_text(n, signed).chars().count() as f64 * self.char_w() + self.font
    }
    /// How many characters fit in `room` pixels.
    pub fn chars_in(&self, room: f64) -> usize {
        (room / self.char_w()).floor().max(1.0) as usize
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new(900.0, false)
    }
}

/// One register of bit cells: the output of stage `stage`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reg {
    pub stage: usize,
    pub x: f64,
    /// Top of the label; the cells start [`Metrics::label_h`] below.
    pub y: f64,
    pub cw: f64,
    pub bits: u32,
    /// Bits per row: `bits` for one row; 64, 32, 16 or 8 for a wrapped register.
    pub per_row: u32,
    /// The extension shown as one cell at the left: the field's width, whether the bits
    /// above it are sign copies, and the cell's width.
    pub collapsed: Option<(u32, bool, f64)>,
    /// Room for the label (the column or band width left to it), and where it starts.
    pub room: f64,
    pub label_x: f64,
    pub label_h: f64,
    pub ch: f64,
    pub row_gap: f64,
}

impl Reg {
    pub fn cells_y(&self) -> f64 {
        self.y + self.label_h
    }
    pub fn rows(&self) -> u32 {
        if self.collapsed.is_some() {
            1
        } else {
            self.bits.div_ceil(self.per_row.max(1))
        }
    }
    pub fn width(&self) -> f64 {
        match self.collapsed {
            Some((w, _, ew)) => ew + f64::from(w) * self.cw,
            None => f64::from(self.per_row.min(self.bits)) * self.cw,
        }
    }
    /// Height of label and cells.
    pub fn height(&self) -> f64 {
        let rows = f64::from(self.rows());
        self.label_h + rows * self.ch + (rows - 1.0) * self.row_gap
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.height()
    }
    /// Left edge of bit `bit` (most significant bit at the left of its row).
    pub fn cell_x(&self, bit: u32) -> f64 {
        match self.collapsed {
            Some((w, _, _)) if bit >= w => self.x,
            Some((w, _, ew)) => self.x + ew + f64::from(w - 1 - bit) * self.cw,
            None => {
                let per = self.per_row.max(1);
                self.x + f64::from(per - 1 - bit % per) * self.cw
            }
        }
    }
    /// Top of bit `bit`'s cell.
    pub fn cell_y(&self, bit: u32) -> f64 {
        let row = match self.collapsed {
            Some(_) => 0,
            None => self.rows() - 1 - bit / self.per_row.max(1),
        };
        self.cells_y() + f64::from(row) * (self.ch + self.row_gap)
    }
    pub fn cell_w(&self, bit: u32) -> f64 {
        match self.collapsed {
            Some((w, _, ew)) if bit >= w => ew,
            _ => self.cw,
        }
    }
}

/// A clamp's number line.
#[derive(Clone, Debug, PartialEq)]
pub struct NumberLine {
    pub stage: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
}

/// A band of bits of one register feeding a range of bits of another, exactly (selection,
/// extension, pool entry).
#[derive(Clone, Debug, PartialEq)]
pub struct Wire {
    pub from: usize,
    pub from_lo: u32,
    pub from_hi: u32,
    pub to: usize,
    pub to_lo: u32,
    pub to_hi: u32,
    /// Where the wire ends when its register stands in a lane column: the column's top, so
    /// that it crosses no other register of the lane.
    pub end_y: Option<f64>,
}

/// A source feeding stages that combine sources bit by bit (a truth table's rows): a wire
/// from the source's left edge down the left side of the stages, with a tap into each.
#[derive(Clone, Debug, PartialEq)]
pub struct Bus {
    /// The source register's stage.
    pub from: usize,
    pub x: f64,
    /// Where the wire leaves the source (its middle row).
    pub y0: f64,
    /// The stages it feeds, each with whether it reads the source inverted (`~a`).
    pub taps: Vec<(usize, bool)>,
}

/// A SIMD lane's column.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneCol {
    pub lane: u8,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// The lane is out of the mask: `d` takes it from elsewhere (or, with `.add`, it is left
    /// out of the sum).
    pub masked: bool,
    /// The lanes are summed into `c` (SIMD `.add`): the mask chooses the lanes summed, it
    /// merges nothing.
    pub summed: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    pub metrics: Metrics,
    /// The title's lines: the instruction (broken after commas where it is too long) and `d`.
    pub title: Vec<String>,
    /// One register per stage, by stage index.
    pub regs: Vec<Option<Reg>>,
    pub lines: Vec<NumberLine>,
    pub wires: Vec<Wire>,
    pub buses: Vec<Bus>,
    pub lanes: Vec<LaneCol>,
    pub height: f64,
}

impl Layout {
    pub fn width(&self) -> f64 {
        self.metrics.width
    }
}

/// How a register of `bits` bits fills `room`: one row of cells, one row with its extension
/// collapsed, or wrapped rows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fit {
    cw: f64,
    per_row: u32,
    collapsed: Option<(u32, bool, f64)>,
}

fn fit(m: &Metrics, bits: u32, ext: Option<(u32, bool)>, room: f64) -> Fit {
    let b = f64::from(bits);
    if b * m.cw_min() <= room {
        return Fit {
            cw: (room / b).min(m.cw_max()),
            per_row: bits,
            collapsed: None,
        };
    }
    if let Some((w, signed)) = ext.filter(|&(w, _)| w > 0 && w < bits) {
        let ew = m.ext_w(bits - w, signed);
        if ew + f64::from(w) * m.cw_min() <= room {
            return Fit {
                cw: ((room - ew) / f64::from(w)).min(m.cw_max()),
                per_row: bits,
                collapsed: Some((w, signed, ew)),
            };
        }
    }
    let per_row = [64u32, 32, 16, 8]
        .into_iter()
        .filter(|&p| p < bits)
        .find(|&p| f64::from(p) * m.cw_min() <= room)
        .unwrap_or(8);
    Fit {
        cw: (room / f64::from(per_row)).min(m.cw_max()),
        per_row,
        collapsed: None,
    }
}

fn bits_of(t: &Trace, k: usize) -> u32 {
    t.stages[k].output.bits.clamp(1, 128)
}

/// The extension of stage `k`, if its bits above a field are copies or zeros.
fn ext_of(t: &Trace, k: usize) -> Option<(u32, bool)> {
    super::extension(t, k).filter(|&(w, _)| w < t.stages[k].output.bits)
}

/// Whether stage `i` has a wire drawn into it, and from where.
fn wire_of(t: &Trace, p: &Provenance, i: usize) -> Option<Wire> {
    let s = &t.stages[i];
    let Detail::Field { width, .. } = s.detail else {
        return None;
    };
    // Only a field taken from an input has a wire: a mask of ones (bmsk, bfi's mask) is drawn
    // as a field but comes from no input's bits.
    if !matches!(s.flow, Flow::Take { .. }) {
        return None;
    }
    if width == 0 {
        return None;
    }
    let top = width.min(s.output.bits) - 1;
    let lo = p.direct(i, 0).first()?;
    let hi = p.direct(i, top).iter().find(|b| b.node == lo.node)?;
    Some(Wire {
        from: lo.node,
        from_lo: lo.mask.trailing_zeros(),
        from_hi: 127 - hi.mask.leading_zeros(),
        to: i,
        to_lo: 0,
        to_hi: top,
        end_y: None,
    })
}

/// The sources stage `i` combines bit by bit, each with whether it is read inverted: a stage
/// whose diagram is [`Detail::Terms`] (`lop3`'s truth-table rows, `a & ~b & c`), each input a
/// source read of the stage's width.
fn taps_of(t: &Trace, i: usize) -> Option<Vec<(usize, bool)>> {
    let s = &t.stages[i];
    let Detail::Terms { inverted } = &s.detail else {
        return None;
    };
    if s.lane.is_some() || inverted.len() != s.inputs.len() {
        return None;
    }
    s.inputs
        .iter()
        .zip(inverted)
        .map(|(v, &inv)| {
            let from = t.stages[..i]
                .iter()
                .position(|x| x.kind == StageKind::Read && x.output.name == v.name)?;
            (v.bits == s.output.bits).then_some(())?;
            Some((from, inv))
        })
        .collect()
}

/// Whether stages `a` and `b` may share a band.
fn packs(t: &Trace, a: usize, b: usize) -> bool {
    let (x, y) = (&t.stages[a], &t.stages[b]);
    x.kind == y.kind
        && matches!(
            x.kind,
            StageKind::Read | StageKind::Extract | StageKind::Field
        )
        && x.lane.is_none()
        && y.lane.is_none()
        && !matches!(x.detail, Detail::Range { .. })
}

/// Title lines (`d = ?` for a trace without its result stage, as predict mode draws it): the
/// instruction and `d` on one line where they fit; otherwise `d` on a line
/// of its own and the instruction broken after its commas.
fn title_lines(m: &Metrics, t: &Trace) -> Vec<String> {
    let room = ((m.width - 4.0) / (m.char_w() * m.title_font() / m.font)).floor() as usize;
    // Predict mode draws a trace cut before the stage that writes d: d stays hidden.
    let d = if t.stages.iter().any(|s| s.kind == StageKind::Result) {
        format!("d = {}", t.result.hex())
    } else {
        "d = ?".to_string()
    };
    let one = format!("{}   {d}", t.instruction);
    if one.chars().count() <= room {
        return vec![one];
    }
    let mut lines = Vec::new();
    let mut cur = String::new();
    for part in t.instruction.split_inclusive(", ") {
        if !cur.is_empty() && cur.chars().count() + part.chars().count() > room {
            lines.push(cur.trim_end().to_string());
            cur = String::new();
        }
        cur.push_str(part);
    }
    lines.push(cur.trim_end().to_string());
    lines.push(d);
    lines
}

pub fn layout(t: &Trace, p: &Provenance, m: Metrics) -> Layout {
    let n = t.stages.len();
    let title = title_lines(&m, t);
    let mut out = Layout {
        metrics: m,
        regs: vec![None; n],
        ..Layout::default()
    };
    let w_all = m.width;
    let mut y = m.title_line() * title.len() as f64 + m.gap();
    out.title = title;
    let taps: Vec<Option<Vec<(usize, bool)>>> = (0..n).map(|k| taps_of(t, k)).collect();
    // Sources that feed a truth table stand one per line, their left edge inside the room the
    // wires down the left side take.
    let fed: Vec<usize> = {
        let mut v: Vec<usize> = taps.iter().flatten().flatten().map(|&(f, _)| f).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let margin = if fed.is_empty() {
        0.0
    } else {
        fed.len() as f64 * m.bus_gap() + m.pad()
    };
    let mut i = 0;
    while i < n {
        if t.stages[i].lane.is_some() {
            let mut j = i;
            while j < n && t.stages[j].lane.is_some() {
                j += 1;
            }
            y = lane_block(t, p, &m, i, j, y, &mut out);
            i = j;
            continue;
        }
        let mut j = i + 1;
        while j < n && packs(t, i, j) && taps[i].is_none() {
            j += 1;
        }
        // Wires reach this band from above: leave room for them.
        if (i..j).any(|k| wire_of(t, p, k).is_some())
            || (taps[i].is_some() && !taps[..i].iter().any(Option::is_some))
        {
            y += m.wire_gap();
        }
        // Registers side by side while their cells stay wide enough, each line's cells as
        // wide as its registers leave room for.
        let x0 = if fed.contains(&i) || taps[i].is_some() {
            margin
        } else {
            0.0
        };
        let room = w_all - x0;
        let mut lines: Vec<Vec<usize>> = Vec::new();
        let mut used = 0.0;
        for k in i..j {
            let want = f64::from(bits_of(t, k)) * m.cw_pack();
            let alone = fed.contains(&k);
            match lines.last_mut() {
                Some(line)
                    if !alone && !fed.contains(&line[0]) && used + m.hgap() + want <= room =>
                {
                    line.push(k);
                    used += m.hgap() + want;
                }
                _ => {
                    lines.push(vec![k]);
                    used = want;
                }
            }
        }
        for line in lines {
            let fits: Vec<Fit> = if line.len() == 1 {
                vec![fit(&m, bits_of(t, line[0]), ext_of(t, line[0]), room)]
            } else {
                let sum: u32 = line.iter().map(|&k| bits_of(t, k)).sum();
                let gaps = m.hgap() * (line.len() - 1) as f64;
                let cw = ((room - gaps) / f64::from(sum)).min(m.cw_max());
                line.iter()
                    .map(|&k| Fit {
                        cw,
                        per_row: bits_of(t, k),
                        collapsed: None,
                    })
                    .collect()
            };
            let mut x = x0;
            let mut tallest: f64 = 0.0;
            for (&k, f) in line.iter().zip(&fits) {
                let s = &t.stages[k];
                let mut reg = Reg {
                    stage: k,
                    x,
                    y,
                    cw: f.cw,
                    bits: bits_of(t, k),
                    per_row: f.per_row,
                    collapsed: f.collapsed,
                    room: 0.0,
                    label_x: x,
                    label_h: m.label_h(),
                    ch: m.ch(),
                    row_gap: m.row_gap(),
                };
                let w = reg.width();
                // The label may run to the next register of the line, or to the edge.
                let last = line.last() == Some(&k);
                reg.room = if last { w_all - x } else { w + m.hgap() / 2.0 };
                let mut h = reg.height() + m.gap();
                if matches!(s.detail, Detail::Range { .. }) {
                    let beside = x + w + m.hgap();
                    if w_all - beside >= m.line_min_w() {
                        out.lines.push(NumberLine {
                            stage: k,
                            x: beside,
                            y: reg.cells_y() - m.font * 0.6,
                            w: (w_all - beside).min(m.line_min_w() * 1.6),
                        });
                        reg.room = reg.room.min(beside - x);
                    } else {
                        out.lines.push(NumberLine {
                            stage: k,
                            x,
                            y: reg.bottom() + 2.0,
                            w: w.max(m.line_min_w()).min(w_all - x),
                        });
                        h += m.line_h();
                    }
                }
                tallest = tallest.max(h);
                x += w + m.hgap();
                if let Some(wire) = wire_of(t, p, k) {
                    out.wires.push(wire);
                }
                out.regs[k] = Some(reg);
            }
            y += tallest;
        }
        i = j;
    }
    // Each source of a truth table: one wire down the left side, the first source outermost.
    for (slot, &from) in fed.iter().enumerate() {
        let Some(src) = out.regs[from].as_ref() else {
            continue;
        };
        let y0 = src.cells_y() + m.ch() / 2.0;
        let feeds: Vec<(usize, bool)> = (0..n)
            .filter_map(|k| {
                let inv = taps[k].as_ref()?.iter().find(|&&(f, _)| f == from)?.1;
                Some((k, inv))
            })
            .collect();
        out.buses.push(Bus {
            from,
            x: m.pad() / 2.0 + slot as f64 * m.bus_gap() + m.bus_gap() / 2.0,
            y0,
            taps: feeds,
        });
    }
    out.height = y + 4.0;
    out
}

/// Stages `i..j` are per-lane: one column per lane, side by side where every register fits
/// in one row, else two by two, else in one column.
fn lane_block(
    t: &Trace,
    p: &Provenance,
    m: &Metrics,
    i: usize,
    j: usize,
    y0: f64,
    out: &mut Layout,
) -> f64 {
    let mut lanes: Vec<u8> = (i..j).filter_map(|k| t.stages[k].lane).collect();
    lanes.sort_unstable();
    lanes.dedup();
    let count = lanes.len().max(1);
    let per_lane: Vec<Vec<usize>> = lanes
        .iter()
        .map(|l| (i..j).filter(|&k| t.stages[k].lane == Some(*l)).collect())
        .collect();
    let lane_gap = m.pad();
    let col_room = |cols: usize| {
        let col_w = (m.width - lane_gap * (cols - 1) as f64) / cols as f64;
        (col_w, col_w - 2.0 * m.pad())
    };
    let one_row = |cols: usize| {
        let (_, room) = col_room(cols);
        (i..j).all(|k| fit(m, bits_of(t, k), ext_of(t, k), room).per_row == bits_of(t, k))
    };
    let mut options = vec![count];
    if count >= 4 && count.is_multiple_of(2) {
        options.push(count / 2);
    }
    options.push(1);
    let cols = options.iter().copied().find(|&c| one_row(c)).unwrap_or(1);
    let (col_w, room) = col_room(cols);
    let wired = (i..j).any(|k| wire_of(t, p, k).is_some());
    let mut y = y0 + if wired { m.wire_gap() } else { 0.0 };
    let grid_rows = count.div_ceil(cols);
    let summed = t.stages.iter().any(|s| s.kind == StageKind::Accumulate);
    let masked_of = |stages: &[usize]| {
        stages
            .iter()
            .any(|&k| t.stages[k].flags.contains(&Flag::MaskedOff))
    };
    // The highest lane first (at the top left), like the bits of a register.
    let order: Vec<usize> = (0..count).rev().collect();
    for g in 0..grid_rows {
        let here: Vec<usize> = order.iter().copied().skip(g * cols).take(cols).collect();
        let top = y;
        // Place each lane's registers; a row of the grid is as tall as its tallest lane.
        let mut bottom = top;
        let mut placed: Vec<(usize, f64)> = Vec::new();
        for (slot, &li) in here.iter().enumerate() {
            let x0 = slot as f64 * (col_w + lane_gap);
            let mut ly = top + m.lane_title();
            for &k in &per_lane[li] {
                let s = &t.stages[k];
                let f = fit(m, bits_of(t, k), ext_of(t, k), room);
                let mut reg = Reg {
                    stage: k,
                    x: 0.0,
                    y: ly,
                    cw: f.cw,
                    bits: bits_of(t, k),
                    per_row: f.per_row,
                    collapsed: f.collapsed,
                    room,
                    label_x: x0 + m.pad(),
                    label_h: m.label_h(),
                    ch: m.ch(),
                    row_gap: m.row_gap(),
                };
                let w = reg.width();
                reg.x = x0 + m.pad() + (room - w);
                ly = reg.bottom() + m.gap();
                if matches!(s.detail, Detail::Range { .. }) {
                    if room - w - m.hgap() >= m.line_min_w() {
                        out.lines.push(NumberLine {
                            stage: k,
                            x: x0 + m.pad(),
                            y: reg.cells_y() - m.font * 0.6,
                            w: room - w - m.hgap(),
                        });
                    } else {
                        out.lines.push(NumberLine {
                            stage: k,
                            x: x0 + m.pad(),
                            y: reg.bottom() + 2.0,
                            w: room,
                        });
                        ly += m.line_h();
                    }
                }
                if let Some(wire) = wire_of(t, p, k) {
                    out.wires.push(Wire {
                        end_y: Some(top),
                        ..wire
                    });
                }
                out.regs[k] = Some(reg);
            }
            bottom = bottom.max(ly);
            placed.push((li, x0));
        }
        for (li, x0) in placed {
            out.lanes.push(LaneCol {
                lane: lanes[li],
                x: x0,
                y: top,
                w: col_w,
                h: bottom - top,
                masked: masked_of(&per_lane[li]),
                summed,
            });
        }
        y = bottom + lane_gap;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::{check, evaluate_traced, Inputs};

    /// The figure's width at 1280 × 800, in the embed at 700 px, on a 360 px phone, and in
    /// present mode at 1920 × 1080.
    const WIDTHS: [(f64, bool); 4] = [
        (918.0, false),
        (680.0, false),
        (330.0, false),
        (1880.0, true),
    ];

    fn lay_at(text: &str, m: Metrics) -> (Trace, Layout) {
        let insn =
            ptxlab_core::insn::check(text).unwrap_or_else(|d| panic!("{text}: {}", d.message));
        let t = insn.trace(&Inputs::new(0x9182f3a4, 0x7f80ff01, 0x12345678, 4));
        let p = Provenance::of(&t);
        let l = layout(&t, &p, m);
        (t, l)
    }

    fn lay(text: &str) -> (Trace, Layout) {
        lay_at(text, Metrics::new(918.0, false))
    }

    /// Every accepted example of every row, and the widest forms of each family.
    fn forms() -> Vec<String> {
        let mut v: Vec<String> = ptxlab_core::isa::OPCODES
            .iter()
            .map(|o| o.example.to_string())
            .chain(
                ptxlab_core::ops::OP_ROWS
                    .iter()
                    .map(|o| o.example.to_string()),
            )
            .collect();
        v.extend(
            [
                "vadd4.u32.u32.u32.add d.b210, a.b7654, b.b0123, c;",
                "vadd4.u32.s32.u32.sat d, a, b, c;",
                "vabsdiff4.u32.s32.u32.sat d.b210, a.b7351, b.b0246, c;",
                "vmad.s32.s32.s32.sat.shr15 d, -a.h0, b, c;",
                "vsub2.s32.s32.s32.sat d.h1, a.h10, b.h23, c;",
                "vmax2.s32.s32.s32.add d, a.h01, b.h13, c;",
                "mad.hi.s64 d, a, b, c;",
                "mad.wide.s32 d, a, b, c;",
                "mul.wide.u32 d, a, b;",
                "bfi.b64 d, a, b, c, e;",
                "bfe.s64 d, a, b, c;",
                "dp4a.s32.u32 d, a, b, c;",
                "vadd.s32.s32.s32.sat.add d, a.h1, b.b0, c;",
                "vadd.s32.s32.s32.sat d.b1, a.h1, b.b0, c;",
                "lop3.b32 d, a, b, c, 0x96;",
                "shf.r.clamp.b32 d, a, b, c;",
                "cvt.s8.s64 d, a;",
            ]
            .map(String::from),
        );
        v
    }

    #[test]
    fn every_stage_fits_the_width_with_cells_wide_enough_for_a_digit() {
        for text in forms() {
            for (w, present) in WIDTHS {
                let m = Metrics::new(w, present);
                let (t, l) = lay_at(&text, m);
                assert_eq!(l.regs.len(), t.stages.len());
                for (i, r) in l.regs.iter().enumerate() {
                    let r = r
                        .as_ref()
                        .unwrap_or_else(|| panic!("{text}: stage {i} not placed"));
                    assert!(
                        r.x >= 0.0 && r.x + r.width() <= w + 0.01,
                        "{text} at {w}: stage {i} from {} to {}",
                        r.x,
                        r.x + r.width()
                    );
                    assert!(
                        r.cw >= m.cw_min() - 1e-9,
                        "{text} at {w}: stage {i} cells {}",
                        r.cw
                    );
                }
                for c in &l.lanes {
                    assert!(
                        c.x >= 0.0 && c.x + c.w <= w + 0.01,
                        "{text} at {w}: lane {}",
                        c.lane
                    );
                }
                for nl in &l.lines {
                    assert!(
                        nl.x >= 0.0 && nl.x + nl.w <= w + 0.01,
                        "{text} at {w}: number line"
                    );
                }
                for line in &l.title {
                    assert!(
                        line.chars().count() as f64 * m.char_w() * m.title_font() / m.font <= w,
                        "{text} at {w}: title {line}"
                    );
                }
                // At 1280 × 800 the figure stays under 720 px (less its border).
                if w == 918.0 {
                    assert!(l.height <= 716.0, "{text}: {}", l.height);
                }
            }
        }
    }

    #[test]
    fn narrow_widths_collapse_extensions_and_wrap_wide_registers() {
        // A lane's 33-bit extract in a narrow column: its byte and one cell for the rest.
        let (t, l) = lay_at("vadd4.u32.u32.u32 d, a, b, c;", Metrics::new(330.0, false));
        let ta0 = t
            .stages
            .iter()
            .position(|s| s.output.name == "ta[0]")
            .unwrap();
        let r = l.regs[ta0].as_ref().unwrap();
        assert!(r.collapsed.is_none() || r.collapsed.map(|c| c.0) == Some(8));
        // At 330 px the lanes stand in one column.
        let xs: Vec<f64> = l.lanes.iter().map(|c| c.x).collect();
        assert!(xs.iter().all(|&x| x == xs[0]), "{xs:?}");
        // At 918 px two by two, the highest lane at the top left.
        let (_, l) = lay("vadd4.u32.u32.u32 d, a, b, c;");
        let at = |lane: u8| {
            l.lanes
                .iter()
                .find(|c| c.lane == lane)
                .map(|c| (c.x, c.y))
                .unwrap()
        };
        assert!(at(3).1 < at(1).1 && at(3).0 < at(2).0, "{:?}", l.lanes);
        // A 64-bit register at 330 px: two rows of 32, bit 32 above bit 0.
        let (_, l) = lay_at("bfi.b64 d, a, b, c, e;", Metrics::new(330.0, false));
        let a = l.regs[0].as_ref().unwrap();
        assert_eq!((a.per_row, a.rows()), (32, 2));
        assert_eq!(a.cell_x(32), a.cell_x(0));
        assert!(a.cell_y(32) < a.cell_y(0));
        // A 128-bit product at 918 px: two rows of 64.
        let (t, l) = lay("mad.hi.s64 d, a, b, c;");
        let k = t.stages.iter().position(|s| s.output.bits == 128).unwrap();
        assert_eq!(l.regs[k].as_ref().unwrap().per_row, 64);
    }

    #[test]
    fn pool_wires_go_to_each_lane() {
        let (t, l) = lay("vadd4.u32.u32.u32 d, a.b7351, b.b0246, c;");
        let pool = t
            .stages
            .iter()
            .position(|s| s.kind == StageKind::Pool)
            .unwrap();
        let from_pool = l.wires.iter().filter(|w| w.from == pool).count();
        assert_eq!(from_pool, 8);
        // Lane 0 of ta takes entry 1 (a.b1): pool bits 8..15.
        let ta0 = t
            .stages
            .iter()
            .position(|s| s.output.name == "ta[0]")
            .unwrap();
        let w = l.wires.iter().find(|w| w.to == ta0).unwrap();
        assert_eq!((w.from_lo, w.from_hi), (8, 15));
        assert_eq!(l.lanes.len(), 4);
    }

    /// prmt: each byte of d has a wire from the pool byte its nibble picks, and a replicated
    /// sign has one from that byte's top bit; lop3 lays out its eight truth-table rows, each
    /// fed by a, b and c.
    #[test]
    fn program_instruction_figures() {
        let m = Metrics::default();
        let insn = ptxlab_core::insn::check("prmt.b32 d, a, b, c;").unwrap();
        let t = insn.trace(&Inputs::new(0x1122_3344, 0x8899_aabb, 0x7c40, 0));
        let l = layout(&t, &Provenance::of(&t), m);
        let pool = t
            .stages
            .iter()
            .position(|s| s.kind == StageKind::Pool)
            .unwrap();
        let from_pool: Vec<(u32, u32)> = l
            .wires
            .iter()
            .filter(|w| w.from == pool)
            .map(|w| (w.from_lo, w.from_hi))
            .collect();
        // Nibbles 0, 4, c, 7: bytes 0 and 4, byte 4's sign bit, byte 7.
        assert_eq!(from_pool.len(), 4, "{from_pool:?}");
        for want in [(0, 7), (32, 39), (39, 39), (56, 63)] {
            assert!(from_pool.contains(&want), "{want:?} in {from_pool:?}");
        }
        assert_eq!(l.lanes.len(), 4);
        let insn = ptxlab_core::insn::check("lop3.b32 d, a, b, c, 0xb2;").unwrap();
        let t = insn.trace(&Inputs::new(0xff00_ff00, 0x1234_5678, 0x9abc_def0, 0));
        let l = layout(&t, &Provenance::of(&t), m);
        let rows: Vec<usize> = (0..t.stages.len())
            .filter(|&k| t.stages[k].output.name.starts_with("row"))
            .collect();
        assert_eq!(rows.len(), 8);
        assert!(l.regs.iter().all(Option::is_some));
        // One wire from each of a, b, c, tapping every row; row 5 reads a & ~b & c.
        let names: Vec<&str> = l
            .buses
            .iter()
            .map(|b| t.stages[b.from].output.name.as_str())
            .collect();
        assert_eq!(names, ["a", "b", "c"]);
        for b in &l.buses {
            assert_eq!(b.taps.iter().map(|x| x.0).collect::<Vec<_>>(), rows);
        }
        let inv: Vec<bool> = l.buses.iter().map(|b| b.taps[5].1).collect();
        assert_eq!(inv, [false, true, false]);
        // The rows stand one per line, right of the wires.
        for w in rows.windows(2) {
            let (r0, r1) = (
                l.regs[w[0]].as_ref().unwrap(),
                l.regs[w[1]].as_ref().unwrap(),
            );
            assert!(r1.y > r0.y);
            assert!(r0.x > l.buses.iter().map(|b| b.x).fold(0.0, f64::max));
        }
        assert!(l.height <= 716.0, "{}", l.height);
    }

    #[test]
    fn old_api_still_checks_a_table_instruction() {
        let insn = check("vadd.s32.s32.s32 d, a.h1, b.b0;").unwrap();
        let t = evaluate_traced(&insn, &Inputs::new(1, 2, 3, 4));
        let l = layout(&t, &Provenance::of(&t), Metrics::default());
        assert!(l.regs.iter().all(Option::is_some));
    }
}
