//! The Program view as a page of the second module: its state ([`Prog`]), the address it keeps,
//! back and forward, and the embedded form (`embed=1`).

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::ProgramView;
use crate::model::Action as InsnAction;
use crate::program_model::{Action, Prog};
use crate::route::{Route, Side};
use crate::ui::address::{self, Write};
use crate::ui::root::{use_arrivals, Header};
use crate::ui::{embed, share};

impl Reducible for Prog {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

thread_local! {
    /// The address the Program view wrote last: switching to the instruction tab and back
    /// brings the same program back (the module outlives the view).
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The address the view starts from: the page's, when it names a program; otherwise the
/// program shown last, or none.
fn starting_query() -> String {
    let current = address::current();
    if Route::of(&current) == Route::Program {
        return current;
    }
    LAST.with(|l| l.borrow().clone()).unwrap_or(current)
}

#[function_component]
pub fn ProgramPage() -> Html {
    let prog = use_reducer(|| Prog::from_query(&starting_query()));
    let dispatch = {
        let prog = prog.clone();
        Callback::from(move |a: Action| prog.dispatch(a))
    };
    // The address holds the program, its starting registers and step; steps rewrite it in
    // place, and coming from another view adds an entry.
    use_effect_with(prog.to_query(), |pq| {
        let current = address::current();
        if *pq != current {
            let w = if Route::of(&current) == Route::Program {
                Write::Replace
            } else {
                Write::Push
            };
            address::apply(w, pq);
        }
        LAST.with(|l| *l.borrow_mut() = Some(pq.clone()));
    });
    {
        let dispatch = dispatch.clone();
        use_arrivals(
            Side::Ptx,
            Callback::from(move |(to, q): (Route, String)| {
                if to == Route::Program {
                    dispatch.emit(Action::Load(q));
                }
            }),
        );
    }
    // The embedded widget tells the page around it how tall it is.
    embed::use_report_height(prog.embed);
    let dismiss = {
        let d = dispatch.clone();
        Callback::from(move |_: InsnAction| d.emit(Action::DismissNotes))
    };
    if prog.embed {
        return html! {
            <main class="embed embed-program">
                <share::AddressNotes notes={prog.notes.clone()} dispatch={dismiss} />
                <ProgramView prog={Rc::new((*prog).clone())} {dispatch} />
                <p class="embed-foot">
                    <a href={prog.share_query()} target="_blank" rel="noopener">{ "Open in ptxlab" }</a>
                </p>
            </main>
        };
    }
    html! {
        <>
        <Header share={prog.share_query()} />
        <share::AddressNotes notes={prog.notes.clone()} dispatch={dismiss} />
        <main class="program-page" aria-labelledby="tab-program">
            <ProgramView prog={Rc::new((*prog).clone())} {dispatch} />
        </main>
        </>
    }
}
