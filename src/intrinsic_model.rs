//! The state of the Intrinsic view: which CUDA intrinsic, its arguments, the search for one, and
//! the pure function that moves the state on. Nothing here touches the browser, so it is tested
//! natively.
//!
//! Every value shown comes from `ptxlab_core::intrinsics`: the meaning is evaluated there, the
//! search is the core's, and the PTX, machine code and costs are its measured data. This module
//! only decides which intrinsic and which arguments to evaluate, and writes addresses.

use ptxlab_core::intrinsics::{self, ArchCost, Evaluation, Intrinsic};
use ptxlab_core::sass::SassKind;

use crate::num::{self, View};
use crate::query;

/// The intrinsic shown when the address names none.
pub const DEFAULT_NAME: &str = "__vcmpgtu4";
/// Its arguments: bytes where a > b, a = b and a < b, and a signed/unsigned disagreement.
pub const DEFAULT_ARGS: [u64; 3] = [0x0180_ff00, 0x0280_0000, 0];
/// How many matches the list shows at most.
pub const MAX_MATCHES: usize = 12;
/// Argument names, as the recorded PTX names their registers (`%a` ...).
pub const ARG_NAMES: [&str; 3] = ["a", "b", "c"];

/// Text typed into one argument field that is kept while it is edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub arg: usize,
    pub text: String,
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct IState {
    /// The intrinsic shown.
    pub name: &'static str,
    /// Argument values (raw bits; only the first `args.len()` of the intrinsic count).
    pub args: [u64; 3],
    pub draft: Option<Draft>,
    /// What the search field holds.
    pub search: String,
    /// Whether the list of matches is open.
    pub open: bool,
    /// The highlighted match, an index into [`IState::matches`].
    pub active: usize,
    /// The compact widget for an iframe (`embed=1`).
    pub embed: bool,
    /// What was wrong with the address, in plain words.
    pub notes: Vec<String>,
    /// The core's evaluation of the intrinsic on the arguments.
    pub eval: Evaluation,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IAction {
    /// Text typed into the search field: opens the list of matches.
    Search(String),
    /// Move the highlight in the list (+1 down, -1 up).
    Move(i32),
    /// Show the highlighted match (Enter).
    PickActive,
    /// Show the intrinsic of this name (a click in the list).
    Pick(String),
    /// Close the list and put the shown name back in the field (Escape, leaving the field).
    Close,
    /// Text typed into an argument field (hex, or any form the core reads).
    EditArg {
        arg: usize,
        text: String,
    },
    /// The argument field lost focus.
    EndEdit,
    SetArg {
        arg: usize,
        value: u64,
    },
    /// Back or forward: the state an address describes.
    Load(String),
    DismissNotes,
}

/// Whether an address asks for the Intrinsic view: it has an `fn` key.
pub fn is_intrinsic_query(q: &str) -> bool {
    q.strip_prefix('?')
        .unwrap_or(q)
        .split('&')
        .any(|p| p.split('=').next() == Some("fn"))
}

/// The intrinsic of a name the data holds.
fn lookup(name: &str) -> &'static Intrinsic {
    intrinsics::find(name)
        .or_else(|| intrinsics::find(DEFAULT_NAME))
        .or_else(|| intrinsics::all().next())
        .expect("the intrinsic data is not empty")
}

/// Evaluate; a call with the intrinsic's own number of arguments always evaluates.
fn eval(i: &Intrinsic, args: &[u64; 3]) -> Evaluation {
    let n = i.args.len().min(3);
    match intrinsics::evaluate(i, &args[..n]) {
        Ok(e) => e,
        // Unreachable with the data's intrinsics (at most three arguments); keep a result.
        Err(_) => Evaluation {
            name: i.name,
            args: args[..n].to_vec(),
            result: 0,
            lanes: Vec::new(),
            addend: None,
            outputs: Vec::new(),
        },
    }
}

impl Default for IState {
    fn default() -> IState {
        IState::new(DEFAULT_NAME, DEFAULT_ARGS)
    }
}

impl IState {
    pub fn new(name: &str, args: [u64; 3]) -> IState {
        let i = lookup(name);
        let mut s = IState {
            name: i.name,
            args,
            draft: None,
            search: i.name.to_string(),
            open: false,
            active: 0,
            embed: false,
            notes: Vec::new(),
            eval: eval(i, &args),
        };
        s.show(i.name);
        s
    }

    /// The intrinsic shown.
    pub fn intrinsic(&self) -> &'static Intrinsic {
        lookup(self.name)
    }

    /// Width in bits of argument `arg` (64 for arguments the intrinsic does not take).
    pub fn width(&self, arg: usize) -> u32 {
        self.intrinsic().args.get(arg).map_or(64, |t| t.bits())
    }

    /// The core's matches for the search text, best first, at most [`MAX_MATCHES`].
    pub fn matches(&self) -> Vec<&'static Intrinsic> {
        let mut m = intrinsics::search(&self.search);
        m.truncate(MAX_MATCHES);
        m
    }

    /// How many intrinsics match in all.
    pub fn match_count(&self) -> usize {
        intrinsics::search(&self.search).len()
    }

    /// What the field of argument `arg` shows.
    pub fn arg_text(&self, arg: usize) -> String {
        match &self.draft {
            Some(d) if d.arg == arg => d.text.clone(),
            _ => num::format(self.args[arg], self.width(arg), View::Hex),
        }
    }

    /// Why what was typed into argument `arg` does not read, if it does not.
    pub fn arg_error(&self, arg: usize) -> Option<&str> {
        match &self.draft {
            Some(d) if d.arg == arg => d.error.as_deref(),
            _ => None,
        }
    }

    /// The result `d` in one view, as wide as the intrinsic's result type.
    pub fn result_text(&self, view: View) -> String {
        num::format(self.eval.result, self.intrinsic().result.bits(), view)
    }

    /// The call as C: `__vcmpgtu4(0x0180ff00, 0x02800000)`.
    pub fn call_text(&self) -> String {
        let i = self.intrinsic();
        let args: Vec<String> = (0..i.args.len())
            .map(|k| num::format(self.args[k], self.width(k), View::Hex))
            .collect();
        format!("{}({})", i.name, args.join(", "))
    }

    fn show(&mut self, name: &str) {
        let i = lookup(name);
        self.name = i.name;
        for k in 0..3 {
            self.args[k] &= num::mask(self.width(k));
        }
        self.eval = eval(i, &self.args);
        self.search = i.name.to_string();
        self.open = false;
        self.active = 0;
        self.draft = None;
    }

    fn set_arg(&mut self, arg: usize, value: u64) {
        if arg < self.intrinsic().args.len() {
            self.args[arg] = value & num::mask(self.width(arg));
            self.eval = eval(self.intrinsic(), &self.args);
        }
    }

    /// The state an address describes: `?fn=__vcmpgtu4&a=0x..&b=..&c=..`, plus `embed=1`.
    /// Unreadable parts keep their defaults and are explained in `notes`.
    pub fn from_query(q: &str) -> IState {
        let req = query::read(q);
        let mut args = DEFAULT_ARGS;
        for (v, r) in args.iter_mut().zip(req.values) {
            if let Some(x) = r {
                *v = x;
            }
        }
        let mut notes = req.notes;
        let name = match req.function.as_deref() {
            Some(f) => match intrinsics::find(f) {
                Some(i) => i.name,
                None => {
                    notes.push(format!(
                        "There is no intrinsic called “{}”; showing {DEFAULT_NAME} instead.",
                        query::excerpt(f, 30)
                    ));
                    DEFAULT_NAME
                }
            },
            None => DEFAULT_NAME,
        };
        let mut s = IState::new(name, args);
        s.embed = req.embed;
        s.notes = notes;
        s
    }

    /// The address query that brings back this state.
    pub fn to_query(&self) -> String {
        let mut q = self.share_query();
        if self.embed {
            q.push_str("&embed=1");
        }
        q
    }

    /// The query of the full playground showing this state (no view options).
    pub fn share_query(&self) -> String {
        let mut q = format!("?fn={}", query::encode(self.name));
        for (k, name) in ARG_NAMES
            .iter()
            .enumerate()
            .take(self.intrinsic().args.len())
        {
            q.push_str(&format!(
                "&{name}={}",
                num::format(self.args[k], self.width(k), View::Hex)
            ));
        }
        q
    }

    /// The Program view's address for the recorded PTX with the arguments in its registers:
    /// `?prog=<PTX, one statement a line>&regs=%a=0x..,%b=0x..`.
    pub fn program_query(&self) -> String {
        let i = self.intrinsic();
        let prog = i.ptx.join("\n");
        let regs: Vec<String> = (0..i.args.len())
            .map(|k| {
                format!(
                    "%{}={}",
                    ARG_NAMES[k],
                    num::format(self.args[k], self.width(k), View::Hex)
                )
            })
            .collect();
        format!(
            "?prog={}&regs={}",
            query::encode(&prog),
            query::encode(&regs.join(","))
        )
    }

    /// The architectures where one dedicated machine instruction does the work (native, perhaps
    /// with a few helpers), and those that emulate it with several, as the core classifies the
    /// measured code (`sm_90` ...).
    pub fn native_split(&self) -> (Vec<String>, Vec<String>) {
        let name = |c: &ArchCost| format!("sm_{}", c.arch);
        let cost = &self.intrinsic().cost;
        let native = |c: &&ArchCost| c.kind != SassKind::Emulated;
        (
            cost.iter().filter(native).map(name).collect(),
            cost.iter().filter(|c| !native(c)).map(name).collect(),
        )
    }

    /// The next state. Never panics, whatever the action carries.
    pub fn apply(&self, action: IAction) -> IState {
        let mut s = self.clone();
        match action {
            IAction::Search(t) => {
                s.search = t.chars().take(query::MAX_FUNCTION * 2).collect();
                s.open = true;
                s.active = 0;
            }
            IAction::Move(d) => {
                let n = s.matches().len();
                s.open = true;
                if n > 0 {
                    s.active = (s.active as i64 + d as i64).rem_euclid(n as i64) as usize;
                }
            }
            IAction::PickActive => {
                if let Some(i) = s.matches().get(s.active) {
                    s.show(i.name);
                }
            }
            IAction::Pick(name) => {
                if intrinsics::find(&name).is_some() {
                    s.show(&name);
                }
            }
            IAction::Close => {
                s.open = false;
                s.active = 0;
                s.search = s.name.to_string();
            }
            IAction::EditArg { arg, text } => {
                if arg >= s.intrinsic().args.len() {
                    return s;
                }
                let parsed = num::parse(&text, s.width(arg), View::Hex);
                let error = parsed.as_ref().err().cloned();
                if let Ok(v) = parsed {
                    s.set_arg(arg, v);
                }
                s.draft = Some(Draft { arg, text, error });
            }
            IAction::EndEdit => s.draft = None,
            IAction::SetArg { arg, value } => {
                s.draft = None;
                s.set_arg(arg, value);
            }
            IAction::Load(q) => s = IState::from_query(&q),
            IAction::DismissNotes => s.notes.clear(),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_state_evaluates_by_the_core() {
        crate::test_data();
        let s = IState::default();
        assert_eq!(s.name, "__vcmpgtu4");
        assert_eq!(s.eval.result, 0x0000_ff00);
        assert_eq!(s.result_text(View::Hex), "0x0000ff00");
        assert_eq!(s.result_text(View::Unsigned), "65280");
        assert_eq!(s.eval.lanes.len(), 4);
        assert_eq!(s.call_text(), "__vcmpgtu4(0x0180ff00, 0x02800000)");
    }

    #[test]
    fn search_by_name_and_by_words() {
        crate::test_data();
        let s = IState::default().apply(IAction::Search("unsigned byte compare".into()));
        assert!(s.open);
        assert!(s.matches().iter().any(|i| i.name == "__vcmpgtu4"));
        let s = s.apply(IAction::Search("sum of absolute differences".into()));
        let names: Vec<&str> = s.matches().iter().map(|i| i.name).collect();
        assert!(names.contains(&"__vsadu4"), "{names:?}");
        let s = s.apply(IAction::Search("vabsdiffu".into()));
        assert_eq!(s.matches()[0].name, "__vabsdiffu2");
        let s = s.apply(IAction::Move(1)).apply(IAction::PickActive);
        assert_eq!(s.name, "__vabsdiffu4");
        assert!(!s.open);
        assert_eq!(s.search, "__vabsdiffu4");
        let s = s
            .apply(IAction::Move(-1))
            .apply(IAction::Search("zzzz".into()));
        assert!(s.matches().is_empty());
        let s = s.apply(IAction::Move(1)).apply(IAction::PickActive);
        assert_eq!(s.name, "__vabsdiffu4", "nothing to pick keeps the view");
        let s = s.apply(IAction::Close);
        assert_eq!(s.search, "__vabsdiffu4");
        let s = s.apply(IAction::Search("x".repeat(10_000)));
        assert!(s.search.len() <= query::MAX_FUNCTION * 8);
    }

    #[test]
    fn arguments_and_widths() {
        crate::test_data();
        let s = IState::default().apply(IAction::Pick("__dp4a".into()));
        assert_eq!(s.intrinsic().args.len(), 3);
        let s = s
            .apply(IAction::SetArg {
                arg: 0,
                value: 0x0102_0304,
            })
            .apply(IAction::SetArg {
                arg: 1,
                value: 0x0101_0101,
            })
            .apply(IAction::EditArg {
                arg: 2,
                text: "0x64".into(),
            });
        assert_eq!(s.eval.result, 10 + 100);
        assert_eq!(s.arg_text(2), "0x64");
        assert!(s.arg_error(2).is_none());
        let s = s.apply(IAction::EditArg {
            arg: 2,
            text: "0xzz".into(),
        });
        assert!(s.arg_error(2).is_some());
        assert_eq!(s.args[2], 0x64, "a bad value keeps the last good one");
        let s = s.apply(IAction::EndEdit);
        assert_eq!(s.arg_text(2), "0x00000064");
        // An argument the intrinsic does not take is left alone.
        let one = s.apply(IAction::Pick("__brev".into()));
        assert_eq!(one.intrinsic().args.len(), 1);
        assert_eq!(
            one.apply(IAction::SetArg { arg: 2, value: 5 }).args,
            one.args
        );
        // 64-bit arguments keep 64 bits.
        let w = s
            .apply(IAction::Pick("__brevll".into()))
            .apply(IAction::SetArg { arg: 0, value: 1 });
        assert_eq!(w.width(0), 64);
        assert_eq!(w.eval.result, 1 << 63);
        assert_eq!(w.result_text(View::Hex), "0x8000000000000000");
    }

    #[test]
    fn addresses_round_trip() {
        crate::test_data();
        let s = IState::new("__vabsdiffu4", [0x0010_ff00, 0x0a00_00ff, 0]);
        assert_eq!(s.to_query(), "?fn=__vabsdiffu4&a=0x0010ff00&b=0x0a0000ff");
        let t = IState::from_query(&s.to_query());
        assert_eq!(t, s);
        let e = IState::from_query("?fn=__dp4a&a=1&b=2&c=ffffffff&embed=1");
        assert!(e.embed);
        assert_eq!(
            e.to_query(),
            "?fn=__dp4a&a=0x00000001&b=0x00000002&c=0xffffffff&embed=1"
        );
        assert_eq!(
            e.share_query(),
            "?fn=__dp4a&a=0x00000001&b=0x00000002&c=0xffffffff"
        );
        assert!(is_intrinsic_query("?fn=__dp4a&a=1"));
        assert!(is_intrinsic_query("?a=1&fn="));
        assert!(!is_intrinsic_query("?i=add.s32+d,+a,+b;&a=0x1"));
        assert!(!is_intrinsic_query("?prog=fn%3D&regs="));
        let bad = IState::from_query("?fn=__nope&a=zz");
        assert_eq!(bad.name, DEFAULT_NAME);
        assert_eq!(bad.notes.len(), 2, "{:?}", bad.notes);
        let loaded = IState::default().apply(IAction::Load("?fn=vsadu4".into()));
        assert_eq!(loaded.name, "__vsadu4");
        assert!(loaded.apply(IAction::DismissNotes).notes.is_empty());
    }

    #[test]
    fn program_link_carries_the_ptx_and_registers() {
        crate::test_data();
        let s = IState::new("__vabsdiffu4", [0x0010_ff00, 0x0a00_00ff, 0]);
        let q = s.program_query();
        let (prog, regs) = q
            .strip_prefix("?prog=")
            .and_then(|r| r.split_once("&regs="))
            .unwrap();
        let prog = query::decode(prog).unwrap();
        assert_eq!(prog, s.intrinsic().ptx.join("\n"));
        assert!(prog.contains("vabsdiff4"), "{prog}");
        assert_eq!(query::decode(regs).unwrap(), "%a=0x0010ff00,%b=0x0a0000ff");
    }

    #[test]
    fn native_on_sm90_not_on_sm120() {
        crate::test_data();
        let s = IState::new("__vabsdiffu4", DEFAULT_ARGS);
        let (native, other) = s.native_split();
        assert!(native.contains(&"sm_90".to_string()), "{native:?}");
        assert_eq!(other, ["sm_120"]);
        let (native, _) = IState::new("__vcmpgtu4", DEFAULT_ARGS).native_split();
        assert!(native.is_empty(), "{native:?}");
    }

    /// Every intrinsic evaluates from the state with edge values (a panic would stop the page).
    #[test]
    fn every_intrinsic_evaluates() {
        crate::test_data();
        for i in intrinsics::all() {
            let mut s = IState::default().apply(IAction::Pick(i.name.into()));
            assert_eq!(s.name, i.name);
            for v in [0, u64::MAX, 0x8080_8080_8080_8080, 1] {
                for arg in 0..3 {
                    s = s.apply(IAction::SetArg { arg, value: v });
                }
                assert_eq!(
                    s.eval,
                    intrinsics::evaluate(i, &s.args[..i.args.len()]).unwrap()
                );
            }
            assert_eq!(IState::from_query(&s.to_query()), s);
        }
    }
}
