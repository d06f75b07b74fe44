//! `vmad`: a product of two parts of registers plus `c`, with scaling and saturation.

use super::{outside, read_part, src_neg, src_sel, M32, S32_MAX, S32_MIN, U32_MAX};
use crate::ast::{Instruction, Scale};
use crate::bits::{clamp_i64, sext};
use crate::differences::DiffId;
use crate::eval::semantics::{Hardware, Semantics, Text};
use crate::trace::{Detail, Flag, Flow, NoTrace, Saturation, Stage, StageKind, Tracer, Val};

/// `vmad`: `(±a·b) + (±c)` with optional plus one, scaling and saturation.
///
/// As measured: the two extended operands are multiplied as signed 32-bit numbers (a whole-word
/// `.u32` operand with its top bit set counts as negative), `c` is always sign-extended, the sum
/// is kept in 64 bits, `.shr7/.shr15` shift arithmetically when the result is signed and
/// logically otherwise, and `.sat` clamps the 64-bit value to the s32 or u32 range.
pub fn eval_vmad<S: Semantics, T: Tracer>(insn: &Instruction, v: &[u64; 4], t: &mut T) -> u64 {
    let f = &insn.form;
    let vf = VmadForm::of(insn);
    let signed_final = vf.signed_final;
    let c = v[2] & M32;

    let ta = read_part("a", v[0], src_sel(insn, 0), vf.asig, t);
    let tb = read_part("b", v[1], src_sel(insn, 1), vf.bsig, t);
    if S::TEXT {
        return vmad_text(insn, &vf, ta, tb, c, t);
    }

    // The literal reading's answer, only when tracing: a stage is flagged when it departs from
    // the text and the answer differs because of it.
    let final_differs = T::ON
        && eval_vmad::<Text, _>(insn, v, &mut NoTrace)
            != eval_vmad::<Hardware, _>(insn, v, &mut NoTrace);
    // The entry that explains a difference: the product when an operand changed its sign.
    let words_signed = sext(ta as u64, 32) != ta || sext(tb as u64, 32) != tb;
    let vmad_id = if words_signed {
        DiffId::VmadWordsSigned
    } else {
        DiffId::VmadCSignExtended
    };

    // The product of the operands read as signed 32-bit numbers.
    let ma = sext(ta as u64, 32);
    let mb = sext(tb as u64, 32);
    let VmadSum {
        prod,
        p,
        c: cc,
        cx,
        sum,
    } = vf.adjust.sum(ma, mb, c);
    t.stage([], || {
        let differs = ma != ta || mb != tb;
        // The extraction above shows the text's 33-bit value; the product reads each operand
        // again as a signed 32-bit word, which the formula says when it changes the value.
        let (label, op) = if differs {
            (
                "product of the low 32 bits of ta and tb, each read as a signed word (a .u32 word with its top bit set counts as negative)",
                "s32(ta) * s32(tb)",
            )
        } else {
            ("full product of a and b", "ta * tb")
        };
        Stage::new(
            StageKind::Product,
            label,
            Val::new("p", 64, true, i128::from(prod)),
        )
        .flow(Flow::Carry)
        .op(op)
        .input(Val::new("ta", 32, true, i128::from(ma)))
        .input(Val::new("tb", 32, true, i128::from(mb)))
        .differs_if(differs && final_differs, DiffId::VmadWordsSigned)
        .detail(Detail::Product {
            full_bits: 64,
            kept_lo: 0,
            kept_bits: 64,
        })
    });

    // Negation of the product or of c, and plus one.
    adjust_stage(vf.adjust, i128::from(prod), i128::from(p), "p", 64, c, t);
    let lsb = vf.adjust.lsb;
    t.stage([], || {
        Stage::new(
            StageKind::Extract,
            "c sign-extended to 64 bits (even when the result is unsigned)",
            Val::new("c", 64, true, i128::from(cx)),
        )
        .op("sext(c)")
        .input(Val::reg("c", 32, cc))
        .extended(true)
        .differs_if(
            !signed_final && cx < 0 && final_differs && !words_signed,
            DiffId::VmadCSignExtended,
        )
        .flow(Flow::field(0, 32, true))
        .detail(Detail::Field {
            source: cc,
            source_bits: 32,
            lo: 0,
            width: 32,
            signed: true,
            out_bits: 64,
        })
    });

    t.stage([], || {
        let op = if lsb == 1 { "p + c + 1" } else { "p + c" };
        Stage::new(
            StageKind::Operate,
            "sum in 64 bits",
            Val::new("tmp", 64, true, i128::from(sum)),
        )
        .flow(Flow::Carry)
        .op(op)
        .input(Val::new("p", 64, true, i128::from(p)))
        .input(Val::new("c", 64, true, i128::from(cx)))
    });

    let scaled = match vf.k {
        0 => sum,
        k => {
            let r = scale(sum, signed_final, k);
            t.stage([], || {
                let (label, op) = if signed_final {
                    (
                        "scaled: arithmetic right shift (signed result)",
                        format!("tmp >> {k}"),
                    )
                } else {
                    (
                        "scaled: logical right shift (unsigned result)",
                        format!("tmp >>> {k}"),
                    )
                };
                Stage::new(
                    StageKind::Scale,
                    label,
                    Val::new(
                        "tmp",
                        64,
                        signed_final,
                        if signed_final {
                            i128::from(r)
                        } else {
                            i128::from(r as u64)
                        },
                    ),
                )
                .flow(Flow::shifted(k as i32, signed_final))
                .op(op)
                .input(Val::new("tmp", 64, true, i128::from(sum)))
                .differs_if(
                    !signed_final && sum < 0 && final_differs && !words_signed,
                    DiffId::VmadCSignExtended,
                )
            });
            r
        }
    };

    let d = if f.sat {
        let (lo, hi) = sat_bounds(signed_final);
        let r = clamp_i64(scaled, lo, hi);
        t.stage(
            [
                (r < scaled, Flag::ClampedHigh),
                (r > scaled, Flag::ClampedLow),
            ],
            || {
                let label = if signed_final {
                    "saturated to the s32 range (signed result)"
                } else {
                    "saturated to the u32 range (unsigned result)"
                };
                Stage::new(
                    StageKind::Clamp,
                    label,
                    Val::new("tmp", 33, true, i128::from(r)),
                )
                .saturate(
                    Saturation::Range {
                        lo: lo.into(),
                        hi: hi.into(),
                    },
                    Val::new("tmp", 64, true, i128::from(scaled)),
                )
            },
        );
        r as u64 & M32
    } else {
        t.stage([(outside(scaled, 32, signed_final), Flag::Wrapped)], || {
            Stage::new(
                StageKind::Truncate,
                "no .sat: the low 32 bits are kept",
                Val::reg("tmp", 32, scaled as u64),
            )
            .flow(Flow::extend(false))
            .op("tmp & 0xffffffff")
            .input(Val::new("tmp", 64, true, i128::from(scaled)))
        });
        scaled as u64 & M32
    };
    t.stage([], || {
        Stage::new(
            StageKind::Result,
            "value written to d",
            Val::reg("d", 32, d),
        )
        .differs_if(final_differs, vmad_id)
    });
    d
}

/// `vmad`'s form decoded once: the signs, the adjustment of the sum and the scale's shift. The
/// evaluator (both readings) and the plans (`plan::video`) read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VmadForm {
    /// `a` is of a signed type.
    pub(crate) asig: bool,
    /// `b` is of a signed type.
    pub(crate) bsig: bool,
    /// The result is signed: a signed source or a negation.
    pub(crate) signed_final: bool,
    /// How the sum is adjusted.
    pub(crate) adjust: Adjust,
    /// The scale's shift: 7 or 15 for `.shr7`/`.shr15`, 0 without.
    pub(crate) k: u32,
}

impl VmadForm {
    /// The form of `insn`, a `vmad`.
    pub(crate) fn of(insn: &Instruction) -> VmadForm {
        let f = &insn.form;
        let sg = insn.signs();
        let (asig, bsig) = (sg & 2 != 0, sg & 4 != 0);
        let (na, nb, nc) = (src_neg(insn, 0), src_neg(insn, 1), src_neg(insn, 2));
        let negp = na ^ nb;
        VmadForm {
            asig,
            bsig,
            signed_final: asig || bsig || negp || nc,
            adjust: Adjust::of(f.po, negp, nc),
            k: match f.scale {
                None => 0,
                Some(Scale::Shr7) => 7,
                Some(Scale::Shr15) => 15,
            },
        }
    }
}

/// How `.po`, a negated product and a negated `c` change `vmad`'s sum: the product is XOR-ed
/// with `p_not` (all ones: complemented), `c` with `c_not`, and `lsb` is added. `.po` wins over
/// the negations, and a negated product over a negated `c`, as measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Adjust {
    /// All ones when the product is complemented, else 0.
    pub(crate) p_not: i64,
    /// All ones in 32 bits when `c` is complemented, else 0.
    pub(crate) c_not: u64,
    /// The one added to the sum (`.po`, or completing a negation), else 0.
    pub(crate) lsb: i64,
}

impl Adjust {
    /// The adjustment of a form with `.po`, a negated product, a negated `c`.
    pub(crate) fn of(po: bool, negp: bool, nc: bool) -> Adjust {
        Adjust {
            p_not: if !po && negp { -1 } else { 0 },
            c_not: if !po && !negp && nc { M32 } else { 0 },
            lsb: i64::from(po || negp || nc),
        }
    }

    /// The hardware's sum: the product of the signed 32-bit words `ma` and `mb`, adjusted, plus
    /// `c` adjusted and sign-extended, plus `lsb`, in 64 bits.
    #[inline(always)]
    pub(crate) fn sum(self, ma: i64, mb: i64, c: u64) -> VmadSum {
        let prod = ma.wrapping_mul(mb);
        let p = prod ^ self.p_not;
        let c = (c ^ self.c_not) & M32;
        let cx = sext(c, 32);
        VmadSum {
            prod,
            p,
            c,
            cx,
            sum: p.wrapping_add(cx).wrapping_add(self.lsb),
        }
    }
}

/// The values of the hardware's `vmad` sum ([`Adjust::sum`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VmadSum {
    /// The product.
    pub(crate) prod: i64,
    /// The product as adjusted.
    pub(crate) p: i64,
    /// `c` as adjusted (32 bits).
    pub(crate) c: u64,
    /// `c` as adjusted, sign-extended.
    pub(crate) cx: i64,
    /// The sum.
    pub(crate) sum: i64,
}

/// `vmad`'s scale: the 64-bit sum shifted right by `k` (0 without `.shr7`/`.shr15`),
/// arithmetically for a signed result and logically otherwise. The plans (`plan::video`) run
/// it too.
#[inline(always)]
pub(crate) fn scale(sum: i64, signed_final: bool, k: u32) -> i64 {
    if signed_final {
        sum >> k
    } else {
        ((sum as u64) >> k) as i64
    }
}

/// The range `.sat` clamps `vmad`'s result to: s32 for a signed result, u32 otherwise. The
/// plans read it too.
#[inline(always)]
pub(crate) fn sat_bounds(signed_final: bool) -> (i64, i64) {
    if signed_final {
        (S32_MIN, S32_MAX)
    } else {
        (0, U32_MAX)
    }
}

/// The stage of `vmad`'s `.po`, negated-product or negated-`c` step, the same in both
/// readings: `adj` says which; the product before and after it (named `name`, `bits` wide in
/// the trace) and `c` before it.
fn adjust_stage<T: Tracer>(
    adj: Adjust,
    prod: i128,
    p: i128,
    name: &'static str,
    bits: u32,
    c: u64,
    t: &mut T,
) {
    if adj.p_not != 0 {
        t.stage([(true, Flag::Negated), (true, Flag::PlusOne)], || {
            Stage::new(
                StageKind::Adjust,
                "product negated: complemented here, one added to the sum",
                Val::new(name, bits, true, p),
            )
            .flow(Flow::Bitwise)
            .op(format!("~{name}"))
            .input(Val::new(name, bits, true, prod))
        });
    } else if adj.c_not != 0 {
        t.stage([(true, Flag::Negated), (true, Flag::PlusOne)], || {
            Stage::new(
                StageKind::Adjust,
                "c negated: complemented here, one added to the sum",
                Val::reg("c", 32, (c ^ adj.c_not) & M32),
            )
            .flow(Flow::Bitwise)
            .op("~c")
            .input(Val::reg("c", 32, c))
        });
    } else if adj.lsb != 0 {
        t.stage([(true, Flag::PlusOne)], || {
            Stage::new(
                StageKind::Adjust,
                ".po: one is added to the sum",
                Val::new("lsb", 1, false, 1),
            )
        });
    }
}

/// `vmad` as the ISA text's pseudocode reads literally, from the extracted operands on: a
/// 128-bit product and sum, `c` zero-extended for an unsigned result, a logical shift of the
/// 128-bit sum kept to 64 bits, and a clamp of that 64-bit value.
fn vmad_text<T: Tracer>(
    insn: &Instruction,
    vf: &VmadForm,
    ta: i64,
    tb: i64,
    c: u64,
    t: &mut T,
) -> u64 {
    let f = &insn.form;
    let signed_final = vf.signed_final;
    let prod = i128::from(ta) * i128::from(tb);
    t.stage([], || {
        Stage::new(
            StageKind::Product,
            "full product of the extended a and b, in 128 bits",
            Val::new("tmp", 128, true, prod),
        )
        .flow(Flow::Carry)
        .op("ta * tb")
        .input(Val::new("ta", 33, true, i128::from(ta)))
        .input(Val::new("tb", 33, true, i128::from(tb)))
        .detail(Detail::Product {
            full_bits: 128,
            kept_lo: 0,
            kept_bits: 128,
        })
    });
    let adj = vf.adjust;
    let tmp = prod ^ i128::from(adj.p_not);
    let (cc, lsb) = ((c ^ adj.c_not) & M32, adj.lsb);
    adjust_stage(adj, prod, tmp, "tmp", 128, c, t);
    let c128 = if signed_final {
        i128::from(sext(cc, 32))
    } else {
        i128::from(cc)
    };
    t.stage([], || {
        let (label, f) = if signed_final {
            ("c sign-extended (signed result)", "sext(c)")
        } else {
            ("c zero-extended (unsigned result)", "zext(c)")
        };
        Stage::new(StageKind::Extract, label, Val::new("c", 128, true, c128))
            .flow(Flow::extend(signed_final))
            .op(f)
            .input(Val::reg("c", 32, cc))
            .extended(signed_final)
    });
    let sum = tmp.wrapping_add(c128).wrapping_add(i128::from(lsb));
    t.stage([], || {
        let op = if lsb == 1 { "tmp + c + 1" } else { "tmp + c" };
        Stage::new(
            StageKind::Operate,
            "sum in 128 bits",
            Val::new("tmp", 128, true, sum),
        )
        .flow(Flow::Carry)
        .op(op)
        .input(Val::new("tmp", 128, true, tmp))
        .input(Val::new("c", 128, true, c128))
    });
    let k = vf.k;
    let result = ((sum as u128) >> k) as u64;
    t.stage([], || {
        let label = if k == 0 {
            "low 64 bits of the sum"
        } else {
            "scaled: the 128-bit sum shifted right, low 64 bits kept"
        };
        Stage::new(
            StageKind::Scale,
            label,
            Val::new(
                "result",
                64,
                signed_final,
                if signed_final {
                    i128::from(result as i64)
                } else {
                    i128::from(result)
                },
            ),
        )
        .flow(Flow::shifted(k as i32, false))
        .op(format!("(tmp >> {k}) & 0xffffffffffffffff"))
        .input(Val::new("tmp", 128, true, sum))
    });
    let d = if f.sat {
        let (lo, hi) = if signed_final {
            (S32_MIN, S32_MAX)
        } else {
            (0, U32_MAX)
        };
        // The 64-bit result read with the final result's sign.
        let x = if signed_final {
            i128::from(result as i64)
        } else {
            i128::from(result)
        };
        let r = x.clamp(i128::from(lo), i128::from(hi));
        t.stage(
            [(r < x, Flag::ClampedHigh), (r > x, Flag::ClampedLow)],
            || {
                Stage::new(
                    StageKind::Clamp,
                    if signed_final {
                        "saturated to the s32 range (signed result)"
                    } else {
                        "saturated to the u32 range (unsigned result)"
                    },
                    Val::new("result", 33, true, r),
                )
                .saturate(
                    Saturation::Range {
                        lo: lo.into(),
                        hi: hi.into(),
                    },
                    Val::new("result", 64, signed_final, x),
                )
            },
        );
        r as u64 & M32
    } else {
        let wrapped = outside(result as i64, 32, signed_final) || (!signed_final && result > M32);
        t.stage([(wrapped, Flag::Wrapped)], || {
            Stage::new(
                StageKind::Truncate,
                "no .sat: the low 32 bits are kept",
                Val::reg("result", 32, result),
            )
            .flow(Flow::extend(false))
            .op("result & 0xffffffff")
            .input(Val::new("result", 64, false, i128::from(result)))
        });
        result & M32
    };
    t.stage([], || {
        Stage::new(
            StageKind::Result,
            "value written to d",
            Val::reg("d", 32, d),
        )
    });
    d
}
