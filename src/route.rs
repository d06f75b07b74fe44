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
