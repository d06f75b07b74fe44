//! Which view an address opens: one pure reading of the address query shared by the whole page.
//! The root of the page ([`crate::ui`]) keeps the current [`Route`], reads it again on every
//! back or forward, and draws the one header whose tabs switch between the views.

use crate::intrinsic_model::is_intrinsic_query;
use crate::query;

/// The view an address selects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// One PTX instruction with its operands and stages (the default).
    Instruction,
    /// A program stepped through (`prog=`).
    Program,
    /// A CUDA intrinsic (`fn=`, even an empty or unreadable one: the view explains it).
    Intrinsic,
    /// A lesson by name (`lesson=`).
    Lesson(String),
    /// An exercise set (`set=`), with the answers a student sent back (`answers=`).
    Exercise {
        set: String,
        answers: Option<String>,
    },
}

/// The groups of views the header's links switch between; each remembers its last address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The instruction and program views (the tabs "One instruction" and "Program").
    Ptx,
    /// The intrinsic view.
    Intrinsic,
    /// Lessons and exercise sets.
    Reading,
}

impl Route {
    /// The route of an address query (with or without its `?`). `fn` wins over everything,
    /// then a lesson, an exercise set and a program; anything else is the instruction view.
    /// Never panics: an address that does not read is the instruction view, which explains.
    pub fn of(q: &str) -> Route {
        if is_intrinsic_query(q) {
            return Route::Intrinsic;
        }
        let r = query::read(q);
        if let Some(name) = r.lesson {
            Route::Lesson(name)
        } else if let Some(set) = r.set {
            Route::Exercise {
                set,
                answers: r.answers,
            }
        } else if r.program.is_some() {
            Route::Program
        } else {
            Route::Instruction
        }
    }

    /// The route as text, for passing it between the playground's two wasm modules
    /// ([`Route::from_tag`] reads it back). A lesson's name and an exercise set may hold any
    /// character (a set holds newlines), so the set goes with its length.
    pub fn tag(&self) -> String {
        match self {
            Route::Instruction => "instruction".into(),
            Route::Program => "program".into(),
            Route::Intrinsic => "intrinsic".into(),
            Route::Lesson(name) => format!("lesson:{name}"),
            Route::Exercise { set, answers } => match answers {
                Some(a) => format!("exercise:{}:{set}:{a}", set.len()),
                None => format!("exercise:{}:{set}", set.len()),
            },
        }
    }

    /// The route a [`Route::tag`] names; anything else is the instruction view.
    pub fn from_tag(tag: &str) -> Route {
        match tag {
            "program" => return Route::Program,
            "intrinsic" => return Route::Intrinsic,
            _ => {}
        }
        if let Some(name) = tag.strip_prefix("lesson:") {
            return Route::Lesson(name.into());
        }
        let exercise = tag.strip_prefix("exercise:").and_then(|t| {
            let (len, rest) = t.split_once(':')?;
            let len: usize = len.parse().ok()?;
            let set = rest.get(..len)?;
            let answers = match &rest[len..] {
                "" => None,
                tail => Some(tail.strip_prefix(':')?.to_string()),
            };
            Some(Route::Exercise {
                set: set.into(),
                answers,
            })
        });
        exercise.unwrap_or(Route::Instruction)
    }

    /// The group of views this one belongs to.
    pub fn side(&self) -> Side {
        match self {
            Route::Instruction | Route::Program => Side::Ptx,
            Route::Intrinsic => Side::Intrinsic,
            Route::Lesson(_) | Route::Exercise { .. } => Side::Reading,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_one_instruction() {
        assert_eq!(Route::of(""), Route::Instruction);
        assert_eq!(Route::of("?"), Route::Instruction);
        assert_eq!(Route::of("?i=add.s32+d,+a,+b;&a=0x1"), Route::Instruction);
        // An address that does not read shows the instruction view and its note.
        assert_eq!(Route::of("?i=%zz"), Route::Instruction);
        assert_eq!(Route::of("?lesson=a%20b"), Route::Instruction);
    }

    #[test]
    fn each_key_selects_its_view() {
        assert_eq!(Route::of("?prog=mov.b32+%25r,+1;"), Route::Program);
        assert_eq!(Route::of("prog=x&step=2"), Route::Program);
        assert_eq!(Route::of("?fn=__vcmpgtu4&a=0x1"), Route::Intrinsic);
        assert_eq!(Route::of("?lesson=index"), Route::Lesson("index".into()));
        assert_eq!(
            Route::of("?set=abc&answers=1,2"),
            Route::Exercise {
                set: "abc".into(),
                answers: Some("1,2".into())
            }
        );
    }

    #[test]
    fn precedence_fn_lesson_set_program() {
        assert_eq!(Route::of("?prog=x&fn="), Route::Intrinsic);
        assert_eq!(
            Route::of("?prog=x&lesson=index"),
            Route::Lesson("index".into())
        );
        assert_eq!(Route::of("?lesson=index&fn=__dp4a"), Route::Intrinsic);
        assert_eq!(
            Route::of("?prog=x&set=s"),
            Route::Exercise {
                set: "s".into(),
                answers: None
            }
        );
        // `fn` inside a program's text is not the key.
        assert_eq!(Route::of("?prog=fn%3D&regs="), Route::Program);
    }

    #[test]
    fn tags_read_back() {
        let all = [
            Route::Instruction,
            Route::Program,
            Route::Intrinsic,
            Route::Lesson("carry-chain".into()),
            Route::Exercise {
                set: "a-b_c".into(),
                answers: None,
            },
            Route::Exercise {
                set: "add.u32 d, a, b;|1|2\nsub.u32 d, a, b;|3:4|5\n".into(),
                answers: Some("0x1,:,x".into()),
            },
            Route::Exercise {
                set: "é:".into(),
                answers: None,
            },
            Route::Lesson("a:b\nc".into()),
            Route::Exercise {
                set: "s".into(),
                answers: Some("1,,0x2".into()),
            },
            Route::Exercise {
                set: String::new(),
                answers: Some(String::new()),
            },
        ];
        for r in all {
            assert_eq!(Route::from_tag(&r.tag()), r, "{}", r.tag());
        }
        for odd in [
            "",
            "lesson",
            "program\nx",
            "Program",
            "exercise:",
            "exercise:3:ab",
            "exercise:x:abc",
            "exercise:1:ab",
            "exercise:1:é",
        ] {
            assert_eq!(Route::from_tag(odd), Route::Instruction, "{odd:?}");
        }
    }

    #[test]
    fn sides_group_the_views() {
        assert_eq!(Route::Instruction.side(), Side::Ptx);
        assert_eq!(Route::Program.side(), Side::Ptx);
        assert_eq!(Route::Intrinsic.side(), Side::Intrinsic);
        assert_eq!(Route::Lesson("index".into()).side(), Side::Reading);
        assert_eq!(
            Route::Exercise {
                set: "s".into(),
                answers: None
            }
            .side(),
            Side::Reading
        );
    }
}
