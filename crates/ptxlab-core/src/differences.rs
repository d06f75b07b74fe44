//! The places where the H100 departs from the ISA text, as data: one entry per section of
//! `docs/hardware-vs-spec.md` ([`DIFFERENCES`]), and the two [`Reading`]s of an instruction.
//!
//! This layer sits just above [`crate::isa`] and below everything that evaluates: a stage of a
//! trace names the entry that explains it, and [`crate::readings`] compares the readings.
//!
//! ```
//! use ptxlab_core::differences::{DiffKind, DIFFERENCES};
//! use ptxlab_core::{check, Inputs, Reading};
//! use ptxlab_core::eval::evaluate_as;
//!
//! // Every measured example of an entry: the hardware reading gives the H100's value.
//! for entry in DIFFERENCES.iter().filter(|e| e.kind != DiffKind::Assembler) {
//!     for ex in entry.examples {
//!         let insn = check(ex.ptx).unwrap();
//!         let inputs = Inputs::new(ex.a, ex.b, ex.c, ex.e);
//!         assert_eq!(evaluate_as(&insn, &inputs, Reading::Hardware), ex.hardware, "{}", entry.title);
//!     }
//! }
//! ```

use serde::{Deserialize, Serialize};

/// Which reading of an instruction to evaluate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reading {
    /// What the H100 computes (the conformance data).
    #[default]
    Hardware,
    /// The ISA text's pseudocode followed literally.
    Text,
}

/// The page that explains every difference; [`DiffId::anchor`] names a section of it.
pub const DOC_PATH: &str = "docs/hardware-vs-spec.md";

/// The same page rendered as HTML (`ptxlab doc-html`), which the playground serves and links to.
pub const DOC_PAGE: &str = "docs/hardware-vs-spec.html";

macro_rules! diff_ids {
    ($($var:ident $anchor:literal,)*) => {
        /// One entry of `docs/hardware-vs-spec.md`; serialized as its anchor.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum DiffId {
            $(
                #[doc = concat!("The section `#", $anchor, "` of the page.")]
                #[serde(rename = $anchor)]
                $var,
            )*
        }

        impl DiffId {
            /// Every entry, in the order of the page.
            pub const ALL: &'static [DiffId] = &[$(DiffId::$var,)*];
            /// The section's anchor in the page (`docs/hardware-vs-spec.md#<anchor>`).
            pub fn anchor(self) -> &'static str {
                match self {
                    $(DiffId::$var => $anchor,)*
                }
            }
            /// The entry whose anchor is `s`, if any.
            pub fn from_anchor(s: &str) -> Option<DiffId> {
                Self::ALL.iter().copied().find(|d| d.anchor() == s)
            }
            /// The table entry.
            pub fn info(self) -> &'static Difference {
                // DIFFERENCES lists the entries in declaration order (a test checks it).
                &DIFFERENCES[self as usize]
            }
            /// Link to the entry in the HTML page, relative to the repository root (and to the
            /// root of the served playground).
            pub fn doc_link(self) -> String {
                format!("{DOC_PAGE}#{}", self.anchor())
            }
        }
    };
}

diff_ids! {
    MergeH1 "merge-h1",
    LaneSaturation "lane-saturation",
    LaneSaturationShift "lane-saturation-shift",
    UnsignedWordSaturation "unsigned-word-saturation",
    SecondaryMinMax "secondary-min-max",
    VsetSecondarySign "vset-secondary-sign",
    VshlSecondaryWide "vshl-secondary-64-bit",
    VshlSaturation34 "vshl-saturation-34-bit",
    VmadWordsSigned "vmad-u32-words-signed",
    VmadCSignExtended "vmad-c-sign-extended",
    SimdMaskFromC "simd-vset-mask-from-c",
    SimdMergeLanes "simd-merge-lanes",
    SimdAccumulateExact "simd-accumulate-exact",
    BitField64 "bfe-bfi-64-position",
    FnsMinOffset "fns-min-offset",
    DivideByZero "div-rem-by-zero",
    PtxasVsIsa "ptxas-vs-isa",
}

/// How the text and the hardware relate at one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiffKind {
    /// The pseudocode, followed literally, gives another value: [`Reading::Text`] shows it.
    Contradicts,
    /// The pseudocode agrees with the hardware, but the prose (or a natural reading of it)
    /// suggests another value; both readings give the hardware's value.
    ProseOnly,
    /// The text leaves the value open; both readings give the hardware's value.
    Unspecified,
    /// About which texts ptxas accepts, not about values.
    Assembler,
}

/// A measured case illustrating an entry: both readings' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The instruction.
    pub ptx: &'static str,
    /// Source `a`.
    pub a: u64,
    /// Source `b`.
    pub b: u64,
    /// Source `c`.
    pub c: u64,
    /// Source `e`.
    pub e: u64,
    /// [`Reading::Text`]'s value.
    pub text: u64,
    /// The H100's value (also [`Reading::Hardware`]'s).
    pub hardware: u64,
}

/// One entry of `docs/hardware-vs-spec.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// Which entry.
    pub id: DiffId,
    /// The section's title.
    pub title: &'static str,
    /// Whether it is about values or about what ptxas accepts.
    pub kind: DiffKind,
    /// The rule the hardware follows, in a sentence or two.
    pub summary: &'static str,
    /// Measured cases that show it.
    pub examples: &'static [Example],
}

impl Difference {
    /// The section's anchor in the page.
    pub fn anchor(&self) -> &'static str {
        self.id.anchor()
    }
}

const fn ex(ptx: &'static str, a: u64, b: u64, c: u64, e: u64, text: u64, hw: u64) -> Example {
    Example {
        ptx,
        a,
        b,
        c,
        e,
        text,
        hardware: hw,
    }
}

/// Every entry of `docs/hardware-vs-spec.md`, in [`DiffId`] order.
pub const DIFFERENCES: &[Difference] = &[
    Difference {
        id: DiffId::MergeH1,
        title: "Merging into d.h1 keeps bits 16-31 of the result in place",
        kind: DiffKind::Contradicts,
        summary: "A scalar video result merged into the upper half-word of c contributes its own \
                  bits 16-31, not its low half-word moved up; with .sat that half is 0 except for \
                  vshl and vshr, which saturate to the 32-bit range.",
        examples: &[ex(
            "vadd.u32.u32.u32 d.h1, a.b1, b.h1, c;",
            0x4936304f,
            0x040f05be,
            0xffe66ba5,
            0,
            0x043f6ba5,
            0x00006ba5,
        )],
    },
    Difference {
        id: DiffId::LaneSaturation,
        title: "Saturating for a byte or half-word merge sends negative results to the lane maximum",
        kind: DiffKind::Contradicts,
        summary: "Before a merge, any value outside 0..2^32 (negatives included) counts as the \
                  largest one and is cut to the lane's maximum, so nothing saturates to the low end.",
        examples: &[
            ex(
                "vsub.u32.u32.u32.sat d.b0, a.b2, b.h1, c;",
                0x00000011,
                0x808001ef,
                0xf04ec0b9,
                0,
                0xf04ec000,
                0xf04ec0ff,
            ),
            ex(
                "vsub.s32.s32.s32.sat d.b1, a.b0, b.b2, c;",
                0x00008001,
                0x8c27aa83,
                0x00000004,
                0,
                0x0000da04,
                0x00007f04,
            ),
        ],
    },
    Difference {
        id: DiffId::LaneSaturationShift,
        title: "Shifts merged into a lane saturate to the 32-bit range, then keep the lane's bits",
        kind: DiffKind::Contradicts,
        summary: "vshl and vshr clamp to the destination type's 32-bit range, not the lane's; a \
                  byte lane or d.h0 then receives the low bits of that value, and d.h1 its bits \
                  16-31.",
        examples: &[
            ex(
                "vshl.u32.u32.u32.sat.clamp d.b0, a, b.b1, c;",
                0x017f7f81,
                0,
                0x4bdc7d2c,
                0,
                0x4bdc7dff,
                0x4bdc7d81,
            ),
            ex(
                "vshl.u32.u32.u32.sat.clamp d.h1, a.b1, b.h0, c;",
                0x00019760,
                0x0000000e,
                0xff4ded04,
                0,
                0xffffed04,
                0x0025ed04,
            ),
        ],
    },
    Difference {
        id: DiffId::UnsignedWordSaturation,
        title: "Unsigned saturation of a whole word does not limit large values",
        kind: DiffKind::Contradicts,
        summary: "For vadd, vsub, vabsdiff, vmin and vmax with an unsigned destination, .sat only \
                  raises negative values to 0; a value of 2^32 or more keeps its low 32 bits.",
        examples: &[ex(
            "vadd.u32.u32.u32.sat.add d, a, b.h0, c;",
            0xfffffffe,
            0x00000028,
            0x04002308,
            0,
            0x04002307,
            0x0400232e,
        )],
    },
    Difference {
        id: DiffId::SecondaryMinMax,
        title: "Secondary .min/.max compare 64-bit values, and only the low word for vadd and vsub",
        kind: DiffKind::Contradicts,
        summary: "The intermediate is compared with c extended to 64 bits; vadd and vsub (and \
                  saturated shifts) first keep only its low word, sign-extended; with an unsigned \
                  destination a negative value counts as larger than any c.",
        examples: &[
            ex(
                "vadd.s32.u32.u32.min d, a, b.b0, c;",
                0xfffffffe,
                0xffffffff,
                0x01808000,
                0,
                0x01808000,
                0x000000fd,
            ),
            ex(
                "vsub.u32.u32.u32.max d, a.h0, b.b0, c;",
                0x00000003,
                0x5f67dd82,
                0xfe204562,
                0,
                0xfe204562,
                0xffffff81,
            ),
            ex(
                "vmin.u32.s32.u32.max d, a.h0, b, c;",
                0x9cdf89cc,
                0x01000181,
                0x80000000,
                0,
                0x80000000,
                0xffff89cc,
            ),
        ],
    },
    Difference {
        id: DiffId::VsetSecondarySign,
        title: "vset's secondary .min/.max are signed when the first source type is",
        kind: DiffKind::Contradicts,
        summary: "vset has no destination type; its secondary comparison, and c's extension, \
                  follow atype instead of being unsigned as the text says.",
        examples: &[ex(
            "vset.s32.u32.eq.min d, a.h1, b.h1, c;",
            0x80000001,
            0xfa4f168d,
            0xfffe01ff,
            0,
            0x00000000,
            0xfffe01ff,
        )],
    },
    Difference {
        id: DiffId::VshlSecondaryWide,
        title: "vshl without .sat: the secondary operation sees all 64 bits of the shift",
        kind: DiffKind::Contradicts,
        summary: "The shifted value is not cut to the 34-bit intermediate; .min and .max compare \
                  the full 64-bit value with c.",
        examples: &[ex(
            "vshl.u32.u32.u32.clamp.min d, a.h0, b.h1, c;",
            0x0000000c,
            0xffffffff,
            0xffff0000,
            0,
            0x00000000,
            0xffff0000,
        )],
    },
    Difference {
        id: DiffId::VshlSaturation34,
        title: "vshl with .sat: the shifted value wraps to 34 bits before it is saturated",
        kind: DiffKind::ProseOnly,
        summary: "Bits above bit 33 are dropped before the clamp, as the text's .s34 \
                  intermediate says, so a large shift can wrap to a small value (even 0) that the \
                  clamp leaves alone, rather than saturate to the maximum.",
        examples: &[ex(
            "vshl.u32.u32.u32.sat.clamp d, a.b1, b.h0;",
            0x07804044,
            0xc22c74af,
            0,
            0,
            0x00000000,
            0x00000000,
        )],
    },
    Difference {
        id: DiffId::VmadWordsSigned,
        title: "vmad multiplies whole-word .u32 operands as signed numbers",
        kind: DiffKind::Contradicts,
        summary: "The extracted operands are multiplied as signed 32-bit numbers: a whole .u32 \
                  word with its top bit set counts as negative.",
        examples: &[ex(
            "vmad.u32.u32.u32.shr7 d, a, b.b2, c;",
            0x80000001,
            0x04022208,
            0x7fffffff,
            0,
            0x03000000,
            0xff000000,
        )],
    },
    Difference {
        id: DiffId::VmadCSignExtended,
        title: "vmad sign-extends c and scales an unsigned result by a logical shift of 64 bits",
        kind: DiffKind::Contradicts,
        summary: "c is sign-extended even for an unsigned result, the sum is kept in 64 bits, and \
                  .shr7/.shr15 shift it logically when the result is unsigned.",
        examples: &[
            ex(
                "vmad.u32.u32.u32.shr7 d, a.h0, b.b0, c;",
                0x3ef40427,
                0x00000001,
                0xcdc2b2ab,
                0,
                0x019b856d,
                0xff9b856d,
            ),
            ex(
                "vmad.u32.u32.u32.sat d, a.b2, b.b2, c;",
                0xffffffe2,
                0x24840104,
                0x81feff81,
                0,
                0x81ff82fd,
                0x00000000,
            ),
        ],
    },
    Difference {
        id: DiffId::SimdMaskFromC,
        title: "vset2/vset4: lanes outside the mask come from c, not from b",
        kind: DiffKind::ProseOnly,
        summary: "The description of vset2 and vset4 names b as the source of the lanes outside \
                  the mask; their pseudocode and the hardware use c, like every SIMD instruction.",
        examples: &[ex(
            "vset2.u32.u32.eq d.h0, a.h20, b.h10, c;",
            0x00000004,
            0x00480888,
            0x08000000,
            0,
            0x00000801,
            0x08000001,
        )],
    },
    Difference {
        id: DiffId::SimdMergeLanes,
        title: "SIMD merge: each lane sits at its own position and wraps within its width",
        kind: DiffKind::Contradicts,
        summary: "Lane i of d holds the low 8 or 16 bits of lane i's result (or c's lane); the \
                  pseudocode's d |= t[i] ORs unshifted, unreduced lane values into the low bits.",
        examples: &[ex(
            "vadd4.u32.u32.u32 d.b0, a, b.b0056, c;",
            0xb3cd9dfd,
            0x818181ff,
            0x80008080,
            0,
            0x000001fe,
            0x8000807e,
        )],
    },
    Difference {
        id: DiffId::SimdAccumulateExact,
        title: "SIMD accumulate: lanes are added in full and with their sign, whatever dtype says",
        kind: DiffKind::ProseOnly,
        summary: "With .add each lane in the mask adds its exact result to c, negative or wider \
                  than a lane; only the 32-bit sum wraps. The pseudocode agrees; the prose about \
                  dtype suggests lanes cut to unsigned bytes or half-words.",
        examples: &[
            ex(
                "vadd2.u32.s32.s32.add d.h1, a.h13, b.h33, c;",
                0xffaa8001,
                0x00000012,
                0x80000001,
                0,
                0x7fffffab,
                0x7fffffab,
            ),
            ex(
                "vadd4.u32.u32.u32.add d, a.b5216, b, c;",
                0x1ab83f31,
                0xb6bcf466,
                0x700969a8,
                0,
                0x70096f1b,
                0x70096f1b,
            ),
        ],
    },
    Difference {
        id: DiffId::BitField64,
        title: "64-bit bfe and bfi read the whole 32-bit position and length",
        kind: DiffKind::Contradicts,
        summary: "The 64-bit forms take position and length as full 32-bit unsigned values: 256 \
                  or more is not reduced to its low byte.",
        examples: &[
            ex(
                "bfe.u64 d, a, b, c;",
                0x8000000000000001,
                0x00000026,
                0x7f81fe00,
                0,
                0x0000000000000000,
                0x0000000002000000,
            ),
            ex(
                "bfi.b64 d, a, b, c, e;",
                0x56c3a6fa5aa69351,
                0x08800000000a0002,
                0x00000008,
                0x08008800,
                0x08800000000a0002,
                0xc3a6fa5aa6935102,
            ),
            ex(
                "bfe.u64 d, a, b, c;",
                0x21,
                0x80000001,
                0x00000005,
                0,
                0x10,
                0,
            ),
        ],
    },
    Difference {
        id: DiffId::FnsMinOffset,
        title: "fns with offset -2^31 returns 0 (measured only for a base the text leaves undefined)",
        kind: DiffKind::Contradicts,
        summary: "Both measured cases have a base of 32 or more, which the text leaves undefined, \
                  and give 0 where every other offset gives 0xffffffff. For a base of 0-31 ptxlab \
                  follows ptxas's sequence, in which negating -2^31 overflows and the search ends \
                  at bit 0; that is inferred from the machine code, not measured, and the text's \
                  count of 2^31 - 1 would find nothing.",
        examples: &[ex(
            "fns.b32 d, a, b, c;",
            0x82bceed3,
            0x2de88000,
            0x80000000,
            0,
            0xffffffff,
            0x00000000,
        )],
    },
    Difference {
        id: DiffId::DivideByZero,
        title: "Division and remainder by zero give all ones",
        kind: DiffKind::Unspecified,
        summary: "Every div and rem by zero, signed or unsigned, of any width, writes all ones; \
                  the text leaves the value unspecified.",
        examples: &[
            ex("rem.u32 d, a, b;", 0xabc23279, 0, 0, 0, 0xffffffff, 0xffffffff),
            ex("div.s16 d, a, b;", 0x9a50, 0, 0, 0, 0xffff, 0xffff),
            ex("rem.s16 d, a, b;", 0x8000, 0, 0, 0, 0xffff, 0xffff),
        ],
    },
    Difference {
        id: DiffId::PtxasVsIsa,
        title: "Where ptxas and the ISA text disagree on what is accepted",
        kind: DiffKind::Assembler,
        summary: "Some of the text's own examples are rejected by ptxas, some selectors are \
                  accepted and ignored, and some forms need a newer PTX version than the text says.",
        examples: &[],
    },
];
