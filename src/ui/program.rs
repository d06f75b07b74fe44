//! The Program view: several lines of PTX run step by step over a register file. Everything it
//! shows comes from `ptxlab_core::program` (the machine and each step's trace).

use std::rc::Rc;

use ptxlab_core::program::{parse_assignments, parse_program, Machine, RegView};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::figure;

/// The program shown first: `__vcmpgtu4` written out as compilers do.
pub const EXAMPLE: &str = "\
// a byte of %r1 above the byte of %r2: 0xff, else 0x00 (__vcmpgtu4)
not.b32 %r3, %r2;
and.b32 %r4, %r1, 0x7f7f7f7f;
and.b32 %r5, %r3, 0x7f7f7f7f;
add.u32 %r6, %r4, %r5;
lop3.b32 %r7, %r1, %r3, %r6, 0xe8;   // majority: carry out of bit 7
and.b32 %r8, %r7, 0x80808080;
prmt.b32 %r9, %r8, 0, 0xba98;        // replicate each byte's sign
setp.ne.u32 %p1, %r9, 0;
@%p1 vset4.u32.u32.gt %r10, %r1, %r2, %r0;";

pub const EXAMPLE_REGS: &str = "%r1=0x10ff7f80 %r2=0x0fff807f";

/// The machine for a program text, starting registers and step count, or the message to show.
pub fn machine_at(text: &str, regs: &str, steps: usize) -> Result<Machine, String> {
    let prog = parse_program(text).map_err(|e| e.to_string())?;
    let init = parse_assignments(regs).map_err(|e| format!("starting registers: {e}"))?;
    let mut m = Machine::new(prog, &init).map_err(|e| format!("starting registers: {e}"))?;
    for _ in 0..steps {
        if m.step().is_none() {
            break;
        }
    }
    Ok(m)
}

fn hex(v: u64, bits: u32) -> String {
    let digits = bits.div_ceil(4).max(1) as usize;
    format!("0x{v:0digits$x}")
}

fn signed(v: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        v as i64
    } else {
        let sh = 64 - bits;
        ((v << sh) as i64) >> sh
    }
}

#[function_component]
pub fn ProgramView() -> Html {
    let text = use_state(|| EXAMPLE.to_string());
    let regs = use_state(|| EXAMPLE_REGS.to_string());
    let steps = use_state(|| 0usize);
    // The register whose last writer is shown (clicked in the table).
    let picked = use_state(|| None::<String>);
    let machine = {
        let (t, r, s) = ((*text).clone(), (*regs).clone(), *steps);
        use_memo((t, r, s), |(t, r, s)| machine_at(t, r, *s))
    };
    let total = match &*machine {
        Ok(m) => m.program.statements.len(),
        Err(_) => 0,
    };
    let set_steps = {
        let steps = steps.clone();
        let picked = picked.clone();
        move |n: usize| {
            steps.set(n.min(total));
            picked.set(None);
        }
    };
    let cur = *steps;
    let on_text = {
        let text = text.clone();
        let steps = steps.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlTextAreaElement = e.target_unchecked_into();
            text.set(el.value());
            steps.set(0);
        })
    };
    let on_regs = {
        let regs = regs.clone();
        let steps = steps.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            regs.set(el.value());
            steps.set(0);
        })
    };
    let btn = |label: &'static str, key: &'static str, n: usize, disabled: bool| {
        let go = set_steps.clone();
        html! {
            <button type="button" aria-keyshortcuts={key} disabled={disabled}
                onclick={Callback::from(move |_| go(n))}>{ label }</button>
        }
    };
    let onkeydown = {
        let go = set_steps.clone();
        Callback::from(move |e: KeyboardEvent| {
            let n = match e.key().as_str() {
                "ArrowRight" | "j" => cur + 1,
                "ArrowLeft" | "k" => cur.saturating_sub(1),
                "End" => usize::MAX,
                "Home" => 0,
                _ => return,
            };
            e.prevent_default();
            go(n);
        })
    };
    let body = match &*machine {
        Err(msg) => html! { <p class="program-error" role="alert">{ msg }</p> },
        Ok(m) => view_machine(m, &picked),
    };
    html! {
        <div class="program-view">
            <p class="muted">{ "Straight-line PTX over named registers (%r1, %rd2, %p1 ...): the video and integer instructions, and mov, and/or/xor/not/cnot, lop3, shf, shl/shr, prmt, setp, selp, cvt. Registers you do not set start at 0." }</p>
            <label class="program-field">{ "Program" }
                <textarea aria-label="Program" rows="10" spellcheck="false" value={(*text).clone()} oninput={on_text} />
            </label>
            <label class="program-field">{ "Starting registers" }
                <input aria-label="Starting registers" type="text" spellcheck="false" value={(*regs).clone()} oninput={on_regs} />
            </label>
            <div class="program-controls" role="toolbar" aria-label="Step through the program" tabindex="0" {onkeydown}>
                { btn("Restart", "Home", 0, cur == 0) }
                { btn("Step back", "ArrowLeft", cur.saturating_sub(1), cur == 0) }
                { btn("Step", "ArrowRight", cur + 1, cur >= total) }
                { btn("Run to end", "End", total, cur >= total) }
                <span class="program-pos" aria-live="polite">{ format!("step {cur} of {total}") }</span>
            </div>
            { body }
        </div>
    }
}

fn view_machine(m: &Machine, picked: &UseStateHandle<Option<String>>) -> Html {
    let next = m.program.statements.get(m.pc()).map(|s| s.line);
    let last = m.history().last();
    let last_line = last.map(|s| s.line);
    let lines: Vec<(usize, String)> = m
        .program
        .statements
        .iter()
        .map(|s| {
            let g = s
                .guard
                .as_ref()
                .map(|(neg, p)| format!("@{}{p} ", if *neg { "!" } else { "" }))
                .unwrap_or_default();
            (s.line, format!("{g}{};", s.text))
        })
        .collect();
    let listing = html! {
        <ol class="program-lines" aria-label="Program lines">
            { for lines.iter().map(|(line, t)| {
                let is_next = Some(*line) == next;
                let is_last = Some(*line) == last_line;
                html! {
                    <li class={classes!(is_next.then_some("next"), is_last.then_some("done-last"))}
                        aria-current={is_next.then_some("step")}>
                        <span class="ln">{ line }</span>
                        <code>{ t }</code>
                        if is_next { <span class="tag">{ " ← next" }</span> }
                    </li>
                }
            }) }
        </ol>
    };
    let rows = m.registers();
    let table = html! {
        <table class="program-regs" aria-label="Registers">
            <thead><tr><th>{ "register" }</th><th>{ "hex" }</th><th>{ "unsigned" }</th><th>{ "signed" }</th><th>{ "last written by" }</th></tr></thead>
            <tbody>
                { for rows.iter().map(|r| reg_row(r, picked)) }
            </tbody>
        </table>
    };
    // The figure: the picked register's last writer, else the last step.
    let shown = match &**picked {
        Some(name) => m
            .history()
            .iter()
            .rev()
            .find(|s| s.writes.iter().any(|w| &w.reg == name)),
        None => last,
    };
    let figure = match shown {
        None => html! { <p class="muted">{ "Step to see the instruction's stages." }</p> },
        Some(s) => {
            let st = &m.program.statements[s.index];
            let head = format!("line {}: {}", st.line, st.text);
            match &s.trace {
                None => {
                    html! { <p class="program-skip">{ format!("{head}: skipped, its guard is false") }</p> }
                }
                Some(t) => html! {
                    <figure class="program-figure" aria-label="Stages of the current instruction">
                        <figcaption>{ head }</figcaption>
                        <figure::Pipeline trace={Rc::new(t.clone())} />
                    </figure>
                },
            }
        }
    };
    html! {
        <div class="program-run">
            { listing }
            { table }
            { figure }
        </div>
    }
}

fn reg_row(r: &RegView, picked: &UseStateHandle<Option<String>>) -> Html {
    let (hexv, u, s) = if r.bits == 1 {
        let b = if r.value != 0 { "true" } else { "false" };
        (b.to_string(), b.to_string(), String::new())
    } else {
        (
            hex(r.value, r.bits),
            r.value.to_string(),
            signed(r.value, r.bits).to_string(),
        )
    };
    let writer = match r.written_by {
        Some(l) => format!("line {l}"),
        None if r.initial => "(given)".to_string(),
        None => "(0 at start)".to_string(),
    };
    let onclick = {
        let picked = picked.clone();
        let name = r.name.clone();
        Callback::from(move |_| picked.set(Some(name.clone())))
    };
    html! {
        <tr class={classes!(r.changed.then_some("changed"))} data-reg={r.name.clone()}>
            <th scope="row">
                <button type="button" class="reg-name" {onclick}
                    title="show the instruction that last wrote it">{ &r.name }</button>
                if r.changed { <span class="changed-mark" aria-label="changed by the last step">{ " ●" }</span> }
            </th>
            <td class="hex"><code>{ hexv }</code></td>
            <td>{ u }</td>
            <td>{ s }</td>
            <td>{ writer }</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_runs_to_the_video_answer() {
        let m = machine_at(EXAMPLE, EXAMPLE_REGS, usize::MAX).unwrap();
        assert_eq!(m.value("%r9"), Some(0xff00_00ff));
        assert_eq!(m.value("%r10"), Some(0x0100_0001));
    }

    #[test]
    fn messages_name_the_line() {
        let e = machine_at("mov.b32 %r1, 1;\nld.u32 %r2, [%r1];", "", 0).unwrap_err();
        assert!(e.starts_with("line 2: "), "{e}");
        let e = machine_at("mov.b32 %r1, 1;", "%r1=zz", 0).unwrap_err();
        assert!(e.starts_with("starting registers"), "{e}");
    }
}
