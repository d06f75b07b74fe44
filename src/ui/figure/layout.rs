//! Where every part of the pipeline figure goes, worked out from the trace alone (no DOM), so
//! that its size can be tested natively.
//!
//! Bands run from top to bottom in stage order. The source registers share the first band, the
//! extensions that follow each other share one, per-lane stages stand side by side as columns
//! (the highest lane at the left, like the bits of a register), and every other stage has a
//! band of its own. A clamp carries a number line beside its register, or below it where the
//! register leaves no room.

use ptxlab_core::provenance::Provenance;
use ptxlab_core::trace::{Detail, Flag, StageKind, Trace};

/// Width of the figure in SVG units.
pub const W: f64 = 1000.0;
/// Height of the title line.
pub const TITLE_H: f64 = 22.0;
/// Height of a register's label line.
pub const LABEL_H: f64 = 13.0;
/// Height of a bit cell.
pub const CH: f64 = 14.0;
/// Space below a register.
pub const GAP: f64 = 9.0;
/// Space above a band that wires reach into.
pub const WIRE_GAP: f64 = 18.0;
/// Height of a clamp's number line.
pub const LINE_H: f64 = 30.0;
/// Widest bit cell.
pub const CW_MAX: f64 = 14.0;
/// Horizontal space between registers side by side.
pub const HGAP: f64 = 18.0;

/// One register of bit cells: the output of stage `stage`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reg {
    pub stage: usize,
    pub x: f64,
    /// Top of the label; the cells start [`LABEL_H`] below.
    pub y: f64,
    pub cw: f64,
    pub bits: u32,
    /// Room for the label (the column or band width left to it), and where it starts.
    pub room: f64,
    pub label_x: f64,
}

impl Reg {
    pub fn cells_y(&self) -> f64 {
        self.y + LABEL_H
    }
    pub fn width(&self) -> f64 {
        f64::from(self.bits) * self.cw
    }
    /// Left edge of bit `bit` (most significant bit at the left).
    pub fn cell_x(&self, bit: u32) -> f64 {
        self.x + f64::from(self.bits.saturating_sub(1).saturating_sub(bit)) * self.cw
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

/// A SIMD lane's column.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneCol {
    pub lane: u8,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// The lane is out of the mask: `d` takes it from elsewhere.
    pub masked: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    /// One register per stage, by stage index.
    pub regs: Vec<Option<Reg>>,
    pub lines: Vec<NumberLine>,
    pub wires: Vec<Wire>,
    pub lanes: Vec<LaneCol>,
    pub height: f64,
}

fn cw_for(bits: u32, room: f64) -> f64 {
    (room / f64::from(bits.max(1))).min(CW_MAX)
}

/// Whether stage `i` has a wire drawn into it, and from where.
fn wire_of(t: &Trace, p: &Provenance, i: usize) -> Option<Wire> {
    let s = &t.stages[i];
    let Detail::Field { width, .. } = s.detail else {
        return None;
    };
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

pub fn layout(t: &Trace, p: &Provenance) -> Layout {
    let n = t.stages.len();
    let mut out = Layout {
        regs: vec![None; n],
        ..Layout::default()
    };
    let mut y = TITLE_H;
    let mut i = 0;
    while i < n {
        if t.stages[i].lane.is_some() {
            let mut j = i;
            while j < n && t.stages[j].lane.is_some() {
                j += 1;
            }
            y = lane_block(t, p, i, j, y, &mut out);
            i = j;
            continue;
        }
        let mut j = i + 1;
        while j < n && packs(t, i, j) {
            j += 1;
        }
        // Wires reach this band from above: leave room for them.
        if (i..j).any(|k| wire_of(t, p, k).is_some()) {
            y += WIRE_GAP;
        }
        let mut x = 0.0;
        let mut line_y = y;
        let mut tallest: f64 = 0.0;
        for k in i..j {
            let s = &t.stages[k];
            let bits = s.output.bits.clamp(1, 128);
            let cw = cw_for(bits, W);
            let w = f64::from(bits) * cw;
            if x > 0.0 && x + w > W {
                x = 0.0;
                line_y += LABEL_H + CH + GAP;
            }
            out.regs[k] = Some(Reg {
                stage: k,
                x,
                y: line_y,
                cw,
                bits,
                room: (W - x).max(w),
                label_x: x,
            });
            let mut h = LABEL_H + CH + GAP;
            if matches!(s.detail, Detail::Range { .. }) {
                let beside = x + w + HGAP;
                if W - beside >= 260.0 {
                    out.lines.push(NumberLine {
                        stage: k,
                        x: beside,
                        y: line_y + LABEL_H - 8.0,
                        w: (W - beside).min(420.0),
                    });
                } else {
                    out.lines.push(NumberLine {
                        stage: k,
                        x,
                        y: line_y + LABEL_H + CH + 2.0,
                        w: w.max(200.0).min(W - x),
                    });
                    h += LINE_H;
                }
            }
            tallest = tallest.max(line_y - y + h);
            x += w + HGAP;
            if let Some(wire) = wire_of(t, p, k) {
                out.wires.push(wire);
            }
        }
        y += tallest;
        i = j;
    }
    out.height = y + 4.0;
    out
}

/// Stages `i..j` are per-lane: one column per lane.
fn lane_block(t: &Trace, p: &Provenance, i: usize, j: usize, y0: f64, out: &mut Layout) -> f64 {
    let mut lanes: Vec<u8> = (i..j).filter_map(|k| t.stages[k].lane).collect();
    lanes.sort_unstable();
    lanes.dedup();
    let count = lanes.len().max(1);
    let col_w = W / count as f64;
    let per_lane: Vec<Vec<usize>> = lanes
        .iter()
        .map(|l| (i..j).filter(|&k| t.stages[k].lane == Some(*l)).collect())
        .collect();
    let rows = per_lane.iter().map(Vec::len).max().unwrap_or(0);
    let wired = (i..j).any(|k| wire_of(t, p, k).is_some());
    let top = y0 + if wired { WIRE_GAP } else { 0.0 };
    // Row heights: a number line under a clamp makes its row taller in every lane.
    let mut row_y = Vec::with_capacity(rows);
    let mut y = top + 14.0; // lane titles
    for r in 0..rows {
        row_y.push(y);
        let line = per_lane.iter().any(|l| {
            l.get(r)
                .is_some_and(|&k| matches!(t.stages[k].detail, Detail::Range { .. }))
        });
        y += LABEL_H + CH + GAP + if line { LINE_H } else { 0.0 };
    }
    for (li, (lane, stages)) in lanes.iter().zip(&per_lane).enumerate() {
        // The highest lane at the left, like the bits of a register.
        let x0 = (count - 1 - li) as f64 * col_w;
        let pad = 6.0;
        let room = col_w - 2.0 * pad;
        let masked = stages
            .iter()
            .any(|&k| t.stages[k].flags.contains(&Flag::MaskedOff));
        out.lanes.push(LaneCol {
            lane: *lane,
            x: x0 + 2.0,
            y: top,
            w: col_w - 4.0,
            h: y - top,
            masked,
        });
        for (r, &k) in stages.iter().enumerate() {
            let s = &t.stages[k];
            let bits = s.output.bits.clamp(1, 128);
            let cw = cw_for(bits, room);
            let w = f64::from(bits) * cw;
            let x = x0 + pad + (room - w);
            out.regs[k] = Some(Reg {
                stage: k,
                x,
                y: row_y[r],
                cw,
                bits,
                room,
                label_x: x0 + pad,
            });
            if matches!(s.detail, Detail::Range { .. }) {
                out.lines.push(NumberLine {
                    stage: k,
                    x: x0 + pad,
                    y: row_y[r] + LABEL_H + CH + 2.0,
                    w: room,
                });
            }
            if let Some(wire) = wire_of(t, p, k) {
                out.wires.push(Wire {
                    end_y: Some(top),
                    ..wire
                });
            }
        }
    }
    y + 4.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxlab_core::{check, evaluate_traced, Inputs};

    fn lay(text: &str) -> (Trace, Layout) {
        let insn = check(text).unwrap_or_else(|d| panic!("{text}: {}", d.message));
        let t = evaluate_traced(&insn, &Inputs::new(0x9182f3a4, 0x7f80ff01, 0x12345678, 4));
        let p = Provenance::of(&t);
        let l = layout(&t, &p);
        (t, l)
    }

    #[test]
    fn every_stage_has_a_register_inside_the_width() {
        for text in [
            "vadd4.u32.s32.u32.add d, a.b7351, b.b0246, c;",
            "vabsdiff4.u32.s32.u32.sat d.b210, a.b7351, b.b0246, c;",
            "vmad.s32.s32.s32.sat.shr15 d, -a.h0, b, c;",
            "mad.wide.s32 d, a, b, c;",
            "bfi.b64 d, a, b, c, e;",
            "dp4a.s32.u32 d, a, b, c;",
            "vsub2.s32.s32.s32.sat d.h1, a.h10, b.h23, c;",
        ] {
            let (t, l) = lay(text);
            for (i, r) in l.regs.iter().enumerate() {
                let r = r
                    .as_ref()
                    .unwrap_or_else(|| panic!("{text}: stage {i} not placed"));
                assert!(
                    r.x >= 0.0 && r.x + r.width() <= W + 0.01,
                    "{text}: stage {i}"
                );
                assert!(r.cw >= 4.0, "{text}: stage {i} cells {}", r.cw);
            }
            assert_eq!(l.regs.len(), t.stages.len());
            // At the page's width (about 900 px for 1000 units) the figure stays under 720 px.
            assert!(l.height * 0.95 <= 720.0, "{text}: {}", l.height);
        }
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
        // The highest lane stands at the left.
        let x = |lane: u8| l.lanes.iter().find(|c| c.lane == lane).unwrap().x;
        assert!(x(3) < x(0));
    }

    /// prmt: each byte of d has a wire from the pool byte its nibble picks, and a replicated
    /// sign has one from that byte's top bit; lop3 lays out its eight truth-table rows.
    #[test]
    fn program_instruction_figures() {
        let insn = ptxlab_core::insn::check("prmt.b32 d, a, b, c;").unwrap();
        let t = insn.trace(&Inputs::new(0x1122_3344, 0x8899_aabb, 0x7c40, 0));
        let l = layout(&t, &Provenance::of(&t));
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
        let l = layout(&t, &Provenance::of(&t));
        let rows = t
            .stages
            .iter()
            .filter(|s| s.output.name.starts_with("row"))
            .count();
        assert_eq!(rows, 8);
        assert!(l.regs.iter().all(Option::is_some));
        assert!(l.height * 0.95 <= 720.0, "{}", l.height);
    }
}
