//! Data the playground fetches when a view first needs it, instead of compiling it into the
//! wasm: the intrinsic data (`intrinsics.txt`, the CUDA intrinsic view and the Learn panel's
//! list of intrinsics), the lessons (`lessons/NAME.md`) and the PTX of the Program view's gallery
//! (`kernels/NAME.ptx`). The service worker keeps every file of the site for offline use, these
//! too. ("What each GPU runs" fetches the atlas itself.)

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// Fetch a file of the site, relative to the page, as text.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let w = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(w.fetch_with_str(url))
        .await
        .map_err(|_| "the network request failed".to_string())?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| "not a response".to_string())?;
    if !resp.ok() {
        return Err(format!("the server answered {}", resp.status()));
    }
    let text = resp.text().map_err(|_| "no body".to_string())?;
    JsFuture::from(text)
        .await
        .map_err(|_| "the body could not be read".to_string())?
        .as_string()
        .ok_or_else(|| "the body is not text".to_string())
}

/// Which data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// `intrinsics.txt`.
    Intrinsics,
    /// `lessons/NAME.md`, every lesson.
    Lessons,
    /// `kernels/NAME.ptx`, every program of the gallery.
    Gallery,
}

impl Which {
    fn ready(self) -> bool {
        match self {
            Which::Intrinsics => ptxlab_core::intrinsics::installed(),
            Which::Lessons => ptxlab_core::lesson::installed(),
            Which::Gallery => crate::gallery::installed(),
        }
    }

    async fn fetch(self) -> Result<(), String> {
        match self {
            Which::Intrinsics => {
                ptxlab_core::intrinsics::install(&fetch_text("intrinsics.txt").await?)
            }
            Which::Lessons => {
                let mut v = Vec::new();
                for n in ptxlab_core::lesson::NAMES {
                    v.push((n.to_string(), fetch_text(&format!("lessons/{n}.md")).await?));
                }
                ptxlab_core::lesson::install(&v)
            }
            Which::Gallery => {
                let mut v = Vec::new();
                for e in crate::gallery::GALLERY {
                    v.push(fetch_text(&e.file()).await?);
                }
                crate::gallery::install(v)
            }
        }
    }

    fn what(self) -> &'static str {
        match self {
            Which::Intrinsics => "the intrinsic data",
            Which::Lessons => "the lessons",
            Which::Gallery => "the gallery",
        }
    }
}

/// Where the data stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Load {
    /// Being fetched.
    Loading,
    /// Installed in the core.
    Ready,
    /// Could not be fetched or read: why.
    Failed(String),
}

/// The data's state; fetches it (once per page, however many components ask) when it is not
/// there yet, and renders again when it arrives.
#[hook]
pub fn use_data(which: Which) -> Load {
    let state = use_state(|| {
        if which.ready() {
            Load::Ready
        } else {
            Load::Loading
        }
    });
    {
        let state = state.clone();
        use_effect_with(which, move |_| {
            if matches!(*state, Load::Loading) {
                wasm_bindgen_futures::spawn_local(async move {
                    match which.fetch().await {
                        Ok(()) => state.set(Load::Ready),
                        Err(e) => state.set(Load::Failed(e)),
                    }
                });
            }
        });
    }
    (*state).clone()
}

thread_local! {
    /// Files fetched by [`use_text`], by address.
    static TEXTS: std::cell::RefCell<Vec<(&'static str, std::rc::Rc<str>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A file of the site as text, fetched once per page; `None` until it is there (or when it
/// cannot be fetched). For data a view only reads, without installing it in the core: the
/// instruction view lists the intrinsics that use an opcode from `intrinsics.txt` this way, so
/// the intrinsic meanings' code stays in the second module.
#[hook]
pub fn use_text(url: &'static str) -> Option<std::rc::Rc<str>> {
    let cached = move || {
        TEXTS.with(|t| {
            t.borrow()
                .iter()
                .find(|(u, _)| *u == url)
                .map(|(_, s)| s.clone())
        })
    };
    let state = use_state(cached);
    {
        let state = state.clone();
        use_effect_with(url, move |_| {
            if state.is_none() {
                wasm_bindgen_futures::spawn_local(async move {
                    if let Some(text) = cached() {
                        state.set(Some(text));
                    } else if let Ok(text) = fetch_text(url).await {
                        let text: std::rc::Rc<str> = text.into();
                        TEXTS.with(|t| t.borrow_mut().push((url, text.clone())));
                        state.set(Some(text));
                    }
                });
            }
        });
    }
    (*state).clone()
}

/// What to show while the data is not there: a line saying it loads, or why it failed.
pub fn placeholder(which: Which, load: &Load) -> Html {
    match load {
        Load::Ready => Html::default(),
        Load::Loading => {
            html! { <p class="loading data-loading muted">{ format!("Loading {}…", which.what()) }</p> }
        }
        Load::Failed(e) => html! {
            <p class="data-failed" role="alert">{ format!("{} could not be loaded ({e}); it is fetched once and then kept for offline use.", capitalised(which.what())) }</p>
        },
    }
}

/// `s` with its first letter in upper case. ASCII only: the names of `Which::what` are, and
/// `char::to_uppercase` would put Unicode's case tables (7 KiB compressed) into the wasm.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_ascii_and_capitalised_in_the_message() {
        for w in [Which::Intrinsics, Which::Lessons, Which::Gallery] {
            assert!(w.what().is_ascii(), "{}", w.what());
            let c = capitalised(w.what());
            assert!(c.starts_with("The "), "{c}");
            assert_eq!(c.to_lowercase(), w.what());
        }
        assert_eq!(capitalised(""), "");
    }
}
