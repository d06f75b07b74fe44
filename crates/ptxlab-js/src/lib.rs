//! ptxlab-core as a JavaScript module, without the playground around it.
//!
//! `scripts/build-api.sh` builds this crate for `wasm32-unknown-unknown` and runs the
//! wasm-bindgen CLI with `--target web`, giving `dist/api/ptxlab.js` (an ES module) and
//! `dist/api/ptxlab_bg.wasm`. After `await init()` the module exports [`check`], [`evaluate`],
//! [`compare`], [`axes`], [`sweep`], [`run`] (a program of several lines), [`intrinsic`] (a CUDA
//! intrinsic by its meaning and by its PTX) and [`version`].
//!
//! Operand values may be hex strings (`"0x7f"`), any string the `ptxlab` tool reads (`"-5"`,
//! `"0b101"`), safe-integer numbers or `BigInt`s; missing sources are 0. Every 64-bit value that
//! comes back is a `BigInt` or a string, never a number that could lose bits. Bad input throws
//! an `Error` whose message is the one `ptxlab eval` prints for the same input.

use js_sys::{Array, BigUint64Array, Object, Reflect, Uint16Array};
use ptxlab_core::insn::{check as insn_check, Evaluation, Written};
use ptxlab_core::intrinsics;
use ptxlab_core::program::{parse_assignments, parse_program, Machine};
use ptxlab_core::sweep::{self as sw, SweepAxis};
use ptxlab_core::trace::Flag;
use ptxlab_core::{Diagnostic, Inputs, Instruction, Reading};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The version of this module (that of the `ptxlab-js` crate, equal to `ptxlab-core`'s).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Parse and validate `text`: any instruction `ptxlab eval` and the playground take, the 47
/// video and integer arithmetic opcodes and the logic, move, compare and convert instructions
/// (`prmt`, `lop3`, `setp` ...). Returns `{ok: true, canonical, opcode}` or `{ok: false,
/// message, allowed, start, end}`, where `start..end` is the offending token in JavaScript
/// string indices (UTF-16 code units). Never throws for bad instruction text.
#[wasm_bindgen]
pub fn check(text: JsValue) -> Result<JsValue, JsValue> {
    let text = instruction_text(&text)?;
    let out = Object::new();
    match insn_check(&text) {
        Ok(insn) => {
            set(&out, "ok", &JsValue::TRUE);
            set(&out, "canonical", &insn.canonical().into());
            set(&out, "opcode", &insn.name().into());
        }
        Err(d) => {
            let (start, end) = utf16_span(&text, &d);
            set(&out, "ok", &JsValue::FALSE);
            set(&out, "message", &d.to_string().into());
            let allowed: Array = d.allowed.iter().map(|s| JsValue::from_str(s)).collect();
            set(&out, "allowed", &allowed);
            set(&out, "start", &start.into());
            set(&out, "end", &end.into());
        }
    }
    Ok(out.into())
}

/// Evaluate `text` with sources `inputs` (`{a, b, c, e}`, each optional; they bind by position:
/// the first source reads `a`, the second `b` ...; `"CC.CF"` sets the carry flag that `addc`,
/// `subc` and `madc` read, which is otherwise the position after their sources). `options.reading` may be `"hardware"` (the
/// default: what an H100 computes) or `"text"` (the ISA text taken literally; the logic, move,
/// compare and convert instructions have one reading). Returns `{values, trace}` and, when the
/// instruction has one destination, `{d, value, signed, bits}` too: `values` is every
/// destination in order, each `{name, bits, hex, value}` (`setp`'s `p` and `q`, an unpacking
/// `mov`'s registers as written; `value` a `BigInt`, or `null` with `hex` `null` for a `_`
/// element of a vector); `d` is hex padded to the destination width, `value` and `signed` `BigInt`s, `bits`
/// the destination width, and `trace` the whole stage-by-stage trace as a plain object.
#[wasm_bindgen]
pub fn evaluate(text: JsValue, inputs: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let (_, insn) = instruction(&text)?;
    let inputs = read_inputs_for(&insn, &inputs)?;
    let reading = match get(&options, "reading")?.as_string().as_deref() {
        None | Some("hardware") => Reading::Hardware,
        Some("text") => Reading::Text,
        Some(other) => {
            return Err(error(&format!(
                "--reading takes 'hardware' or 'text', not \"{other}\""
            )))
        }
    };
    let Evaluation {
        values: written,
        trace: t,
    } = insn.evaluate_reading(&inputs, reading);
    let out = Object::new();
    let values: Array = written
        .iter()
        .map(|w| {
            let o = Object::new();
            set(&o, "name", &w.name.clone().into());
            set(&o, "bits", &w.bits.into());
            let (h, v) = match w.value {
                Some(v) => (JsValue::from(hex(v, w.bits)), JsValue::from(v)),
                None => (JsValue::NULL, JsValue::NULL),
            };
            set(&o, "hex", &h);
            set(&o, "value", &v);
            JsValue::from(o)
        })
        .collect();
    set(&out, "values", &values);
    if let [Written {
        bits,
        value: Some(raw),
        ..
    }] = written[..]
    {
        set(&out, "d", &hex(raw, bits).into());
        set(&out, "value", &JsValue::from(raw));
        set(&out, "signed", &JsValue::from(signed_of(raw, bits)));
        set(&out, "bits", &bits.into());
    }
    set(&out, "trace", &to_js(&t)?);
    Ok(out.into())
}

/// Both readings of one case: `null` when the ISA text taken literally gives the H100's value
/// (always, for the logic, move, compare and convert instructions, which have one reading),
/// otherwise where the two part (`{hardware, text, stage, kind, hardwareStage, textStage,
/// difference}` with the values as `BigInt`s).
#[wasm_bindgen]
pub fn compare(text: JsValue, inputs: JsValue) -> Result<JsValue, JsValue> {
    let (_, insn) = instruction(&text)?;
    let inputs = read_inputs_for(&insn, &inputs)?;
    match insn.compare_readings(&inputs) {
        None => Ok(JsValue::NULL),
        Some(div) => to_js(&div),
    }
}

/// The source fields worth sweeping for `text`, most useful first: each is `{label, operand,
/// lo, width, signed, start, step, steps}` (`start` and `step` as `BigInt`s). Any of them, or its
/// index in this list, can be given to [`sweep`].
#[wasm_bindgen]
pub fn axes(text: JsValue) -> Result<JsValue, JsValue> {
    let (_, insn) = instruction(&text)?;
    to_js(&sw::suggest_axes(&insn))
}

/// Evaluate `text` over a grid of two source fields, the other bits from `inputs`. `options.x`
/// and `options.y` are axes (an index into [`axes`], or an axis object); by default the two
/// the playground's heat map starts with. Returns `{width, height, dstBits, d, flags,
/// flagsSeen, flagNames, x, y}`: `d` a `BigUint64Array` and `flags` a `Uint16Array`, both row by
/// row (`row * width + col`); bit `i` of a flags mask means `flagNames[i]`.
#[wasm_bindgen]
pub fn sweep(text: JsValue, inputs: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let (_, insn) = instruction(&text)?;
    let inputs = read_inputs_for(&insn, &inputs)?;
    let suggested = sw::suggest_axes(&insn);
    let (dx, dy) = sw::default_axes(&insn);
    let x = read_axis(&get(&options, "x")?, "x", &suggested)?.unwrap_or(dx);
    let y = read_axis(&get(&options, "y")?, "y", &suggested)?.unwrap_or(dy);
    let s = sw::sweep(&insn, &inputs, &x, &y);
    let out = Object::new();
    set(&out, "width", &s.width.into());
    set(&out, "height", &s.height.into());
    set(&out, "dstBits", &s.dst_bits.into());
    set(&out, "d", &BigUint64Array::from(&s.d[..]));
    set(&out, "flags", &Uint16Array::from(&s.flags[..]));
    set(&out, "flagsSeen", &s.flags_seen.into());
    let names: Array = Flag::ALL
        .iter()
        .map(|f| JsValue::from_str(f.name()))
        .collect();
    set(&out, "flagNames", &names);
    set(&out, "x", &to_js(&x)?);
    set(&out, "y", &to_js(&y)?);
    Ok(out.into())
}

/// Run a program: several lines of straight-line PTX over registers (as `ptxlab run` and the
/// Program view take it). `registers` gives starting values, as an object (`{"%r1": "0x10",
/// "%p1": true}`) or as text (`"%r1=0x10, %p1=true"`); every other register starts at 0.
/// Returns `{written, registers, steps}`: `written` the registers the program wrote, in order of
/// first write, each `{name, bits, hex, value}` (`value` a `BigInt`); `registers` every
/// register, each `{name, bits, hex, value, initial, writtenBy}` (`writtenBy` the line of the
/// statement that last wrote it, or `null`); `steps` one per statement, each `{index, line,
/// executed, trace, writes}` with the instruction's stages in `trace` (`null` where its guard
/// was false) and `writes` `[{reg, bits, old, new}]`. A bad line throws an `Error` whose message
/// is `line N: ...`, as `ptxlab run` prints it, with `line`, and `start` and `end` locating that
/// line in `program` (UTF-16 indices).
///
/// For one thread of a kernel, `registers` also names its parameters and special registers
/// (`{n: 4, '%tid.x': 5}`), and `memory` (optional) gives its starting bytes as
/// `ADDR=HEXBYTES` items (`'0x2000=04030201 shared:0x10=ff'`); the result then has `memory`,
/// every byte range written, `[{space, address, bytes}]` with bytes in address order as hex.
/// A run that does not end within 100,000 steps (or `maxSteps`, when given) throws
/// `line N: stopped after ...`.
#[wasm_bindgen]
pub fn run(
    program: JsValue,
    registers: JsValue,
    memory: JsValue,
    max_steps: JsValue,
) -> Result<JsValue, JsValue> {
    let text = program
        .as_string()
        .ok_or_else(|| error("the program must be a string of PTX text"))?;
    let init = read_registers(&registers)?;
    // An error at a line of the program: the message, with the line and its span.
    let at_line = |line: usize, message: &str| {
        let err = error(message);
        let (start, end) = line_span(&text, line);
        let _ = Reflect::set(&err, &"line".into(), &(line as u32).into());
        let _ = Reflect::set(&err, &"start".into(), &start.into());
        let _ = Reflect::set(&err, &"end".into(), &end.into());
        err
    };
    let prog = parse_program(&text).map_err(|e| at_line(e.line, &e.to_string()))?;
    let mut m = Machine::new(prog, &init).map_err(|e| error(&e))?;
    if !memory.is_undefined() && !memory.is_null() {
        let items = memory
            .as_string()
            .ok_or_else(|| error("memory must be a string of ADDR=HEXBYTES items"))?;
        let fills = ptxlab_core::program::memory::parse_fills(&items)
            .map_err(|(t, e)| error(&format!("memory {t}: {e}")))?;
        m.set_memory(fills);
    }
    if let Some(n) = max_steps.as_f64() {
        if !((1.0..=1e9).contains(&n) && n.fract() == 0.0) {
            return Err(error("maxSteps must be a whole number of steps, 1 or more"));
        }
        m.max_steps = n as usize;
    }
    m.run();
    if let Some(why) = m.stopped() {
        let line = m.program.statements.get(m.pc()).map_or(0, |s| s.line);
        return Err(at_line(line, why));
    }
    let bytes: Array = m
        .memory()
        .written()
        .into_iter()
        .map(|b| {
            let o = Object::new();
            set(&o, "space", &b.space.name().into());
            set(&o, "address", &format!("0x{:x}", b.address).into());
            set(&o, "bytes", &b.hex().into());
            JsValue::from(o)
        })
        .collect();
    let written: Array = m
        .written()
        .into_iter()
        .map(|(name, bits, v)| {
            let o = Object::new();
            set(&o, "name", &name.into());
            set(&o, "bits", &bits.into());
            set(&o, "hex", &hex(v, bits).into());
            set(&o, "value", &JsValue::from(v));
            JsValue::from(o)
        })
        .collect();
    let regs: Array = m
        .registers()
        .into_iter()
        .map(|r| {
            let o = Object::new();
            set(&o, "name", &r.name.into());
            set(&o, "bits", &r.bits.into());
            set(&o, "hex", &hex(r.value, r.bits).into());
            set(&o, "value", &JsValue::from(r.value));
            set(&o, "initial", &r.initial.into());
            set(
                &o,
                "writtenBy",
                &r.written_by.map_or(JsValue::NULL, |l| (l as u32).into()),
            );
            JsValue::from(o)
        })
        .collect();
    let out = Object::new();
    set(&out, "written", &written);
    set(&out, "registers", &regs);
    set(&out, "memory", &bytes);
    set(&out, "steps", &to_js(m.history())?);
    Ok(out.into())
}

/// Call a CUDA SIMD or integer intrinsic (`"__vcmpgtu4"`, `"__dp4a"` ...) on `args` (an array of
/// values, read as the C types of its arguments). Returns `{name, d, value, meaning, lanes,
/// addend, outputs, ptx, program}`: `d` the result in hex as `ptxlab intrinsic` prints it,
/// `value` a `BigInt`, `meaning` one sentence, `lanes` `[{index, bits, inputs, output}]`,
/// `addend` the summed `c` (or `null`), `outputs` the bools of `__vibmax_*` / `__vibmin_*`
/// (`{pred: 1}` ...), `ptx` the statements nvcc emits, and `program` that PTX run as a program
/// on the arguments: `{d, steps}` as [`run`] gives its steps. An unknown name or a bad argument
/// throws an `Error` with the message `ptxlab intrinsic` prints.
#[wasm_bindgen]
pub fn intrinsic(name: JsValue, args: JsValue) -> Result<JsValue, JsValue> {
    let name = name
        .as_string()
        .ok_or_else(|| error("the intrinsic's name must be a string such as \"__vcmpgtu4\""))?;
    let i = intrinsics::find(&name).ok_or_else(|| error(&unknown_intrinsic(&name)))?;
    let list: Vec<JsValue> = if args.is_undefined() || args.is_null() {
        Vec::new()
    } else if Array::is_array(&args) {
        Array::from(&args).iter().collect()
    } else {
        return Err(error(
            "the arguments must be an array such as [\"0x01020304\", 5n]",
        ));
    };
    if list.len() != i.args.len() {
        let types: Vec<&str> = i.args.iter().map(|t| t.c_name()).collect();
        return Err(error(&format!(
            "{} takes {} argument{} ({}), got {}",
            i.name,
            i.args.len(),
            if i.args.len() == 1 { "" } else { "s" },
            types.join(", "),
            list.len()
        )));
    }
    let mut vals = Vec::new();
    for (n, (v, t)) in list.iter().zip(&i.args).enumerate() {
        let x = read_value_of_width(v, t.bits()).map_err(|e| {
            error(&format!(
                "argument {} of {} ({}): {e}",
                n + 1,
                i.name,
                t.c_name()
            ))
        })?;
        vals.push(x);
    }
    let e = intrinsics::evaluate(i, &vals).map_err(|e| error(&e.to_string()))?;
    let mut m = intrinsics::machine(i, &e.args).map_err(|e| error(&e.to_string()))?;
    m.run();
    let (pd, _) = intrinsics::program_outcome(i, &m);
    let digits = (i.result.bits() / 4) as usize;
    let out = Object::new();
    set(&out, "name", &i.name.into());
    set(&out, "d", &format!("0x{:0digits$x}", e.result).into());
    set(&out, "value", &JsValue::from(e.result));
    set(&out, "meaning", &i.meaning.into());
    set(&out, "lanes", &to_js(&e.lanes)?);
    set(
        &out,
        "addend",
        &e.addend.map_or(JsValue::NULL, JsValue::from),
    );
    let outputs = Object::new();
    for (n, v) in &e.outputs {
        set(&outputs, n, &(*v as u32).into());
    }
    set(&out, "outputs", &outputs);
    let ptx: Array = i.ptx.iter().map(|s| JsValue::from_str(s)).collect();
    set(&out, "ptx", &ptx);
    let program = Object::new();
    set(
        &program,
        "d",
        &pd.map_or(JsValue::NULL, |v| format!("0x{v:0digits$x}").into()),
    );
    set(&program, "steps", &to_js(m.history())?);
    set(&out, "program", &program);
    Ok(out.into())
}

/// The message for a name that is no intrinsic, with the closest names.
pub fn unknown_intrinsic(name: &str) -> String {
    let near: Vec<&str> = intrinsics::search(name.trim_start_matches('_'))
        .iter()
        .take(6)
        .map(|i| i.name)
        .collect();
    if near.is_empty() {
        format!("unknown intrinsic '{name}'")
    } else {
        format!(
            "unknown intrinsic '{name}'; did you mean {}?",
            near.join(", ")
        )
    }
}

/// `v` in hex, padded to a register of `bits` bits (predicates as one digit).
pub fn hex(v: u64, bits: u32) -> String {
    let digits = bits.div_ceil(4).max(1) as usize;
    format!("0x{v:0digits$x}")
}

/// The UTF-16 span of line `line` (1-based) of `text`, without its line break; the end of the
/// text for a line past it.
pub fn line_span(text: &str, line: usize) -> (u32, u32) {
    let mut start = 0;
    for (n, l) in text.split('\n').enumerate() {
        let end = start + l.len();
        if n + 1 == line {
            let l = l.strip_suffix('\r').unwrap_or(l);
            return (utf16_index(text, start), utf16_index(text, start + l.len()));
        }
        start = end + 1;
    }
    let n = utf16_index(text, text.len());
    (n, n)
}

/// Starting registers: `undefined`, text (`"%r1=0x10 %p1=true"`) or an object of values.
fn read_registers(v: &JsValue) -> Result<Vec<(String, u64)>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(Vec::new());
    }
    if let Some(s) = v.as_string() {
        return parse_assignments(&s).map_err(|e| error(&e));
    }
    if !v.is_object() {
        return Err(error(
            "the registers must be an object such as {\"%r1\": \"0x10\"} or text such as \"%r1=0x10\"",
        ));
    }
    let obj: &Object = v.unchecked_ref();
    let mut out = Vec::new();
    for key in Object::keys(obj).iter() {
        let k = key.as_string().unwrap_or_default();
        let x = Reflect::get(obj, &key)?;
        let val = if x.as_bool() == Some(true) {
            1
        } else if x.as_bool() == Some(false) {
            0
        } else if x.as_string().as_deref() == Some("true") {
            1
        } else if x.as_string().as_deref() == Some("false") {
            0
        } else {
            read_value(&x).map_err(|m| error(&format!("{k}: {m}")))?
        };
        out.push((k, val));
    }
    Ok(out)
}

/// A value of `bits` bits: a string as `ptxlab intrinsic` reads it, or a number or `BigInt`
/// that fits (negative ones as their two's complement).
fn read_value_of_width(v: &JsValue, bits: u32) -> Result<u64, String> {
    if let Some(s) = v.as_string() {
        return ptxlab_core::value::parse_value(&s, bits, None);
    }
    let x = read_value(v)?;
    fits(x, bits)
        .then(|| if bits >= 64 { x } else { x & ((1 << bits) - 1) })
        .ok_or_else(|| format!("{} does not fit in {bits} bits", x as i64))
}

/// Whether the 64-bit value `x` is a value of `bits` bits, unsigned or (negative) signed.
pub fn fits(x: u64, bits: u32) -> bool {
    bits >= 64 || x >> bits == 0 || (x as i64) >= -(1i64 << (bits - 1)) && (x as i64) < 0
}

// ---------------------------------------------------------------------------------------------

/// A JavaScript `Error` with `message`.
fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

fn set(obj: &Object, key: &str, v: &JsValue) {
    // Setting a property of a fresh plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), v);
}

/// Property `key` of `obj`, `undefined` when `obj` is `undefined` or `null`.
fn get(obj: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    if obj.is_undefined() || obj.is_null() {
        return Ok(JsValue::UNDEFINED);
    }
    Reflect::get(obj, &JsValue::from_str(key))
}

fn to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::new()
        .serialize_large_number_types_as_bigints(true)
        .serialize_maps_as_objects(true);
    v.serialize(&ser).map_err(|e| error(&e.to_string()))
}

fn instruction_text(text: &JsValue) -> Result<String, JsValue> {
    text.as_string()
        .ok_or_else(|| error("the instruction must be a string of PTX text"))
}

/// The checked instruction (of either kind), or an `Error` with the message and caret line
/// `ptxlab eval` prints (and `start`, `end` properties locating the token).
fn instruction(text: &JsValue) -> Result<(String, Instruction), JsValue> {
    let text = instruction_text(text)?;
    match insn_check(&text) {
        Ok(insn) => Ok((text, insn)),
        Err(d) => {
            let e = error(&d.render(&text));
            let (start, end) = utf16_span(&text, &d);
            let _ = Reflect::set(&e, &"start".into(), &start.into());
            let _ = Reflect::set(&e, &"end".into(), &end.into());
            Err(e)
        }
    }
}

/// The diagnostic's byte span as UTF-16 indices into `text`.
fn utf16_span(text: &str, d: &Diagnostic) -> (u32, u32) {
    (
        utf16_index(text, d.span.start),
        utf16_index(text, d.span.end),
    )
}

/// The UTF-16 index of byte offset `byte` of `text` (clamped to the text, and back to a
/// character boundary).
pub fn utf16_index(text: &str, byte: usize) -> u32 {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    text[..b].encode_utf16().count() as u32
}

/// The destination's bits read as a signed number of `bits` bits.
pub fn signed_of(raw: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        raw as i64
    } else {
        let sh = 64 - bits;
        ((raw << sh) as i64) >> sh
    }
}

/// The largest integer a JavaScript number holds exactly.
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// The source values in `inputs` (an object with keys among `a`, `b`, `c`, `e`, and `CC.CF`
/// for the carry flag that `addc`, `subc` and `madc` read).
fn read_inputs_for(insn: &Instruction, inputs: &JsValue) -> Result<Inputs, JsValue> {
    let mut out = read_inputs(inputs)?;
    if inputs.is_object() {
        let cf = Reflect::get(inputs, &JsValue::from_str("CC.CF"))?;
        if !cf.is_undefined() {
            let v = read_value(&cf).map_err(|m| error(&format!("CC.CF: {m}")))?;
            insn.set_carry(&mut out, v).map_err(|m| error(&m))?;
        }
    }
    Ok(out)
}

/// The source values in `inputs` (an object with keys among `a`, `b`, `c`, `e`; `CC.CF` is
/// read by [`read_inputs_for`]).
fn read_inputs(inputs: &JsValue) -> Result<Inputs, JsValue> {
    let mut out = Inputs::default();
    if inputs.is_undefined() || inputs.is_null() {
        return Ok(out);
    }
    if !inputs.is_object() {
        return Err(error(
            "the sources must be an object such as {a: \"0x1234\", b: 5n}",
        ));
    }
    let obj: &Object = inputs.unchecked_ref();
    for key in Object::keys(obj).iter() {
        let k = key.as_string().unwrap_or_default();
        let v = Reflect::get(obj, &key)?;
        let slot = match k.as_str() {
            "a" => &mut out.a,
            "b" => &mut out.b,
            "c" => &mut out.c,
            "e" => &mut out.e,
            "CC.CF" => continue,
            _ => {
                return Err(error(&format!(
                    "unknown operand '{k}': sources are a, b, c and e, and CC.CF for the carry flag"
                )))
            }
        };
        *slot = read_value(&v).map_err(|m| error(&format!("{k}: {m}")))?;
    }
    Ok(out)
}

/// One value: a string as `ptxlab eval` reads it, a safe integer or a `BigInt` from -2^63 to
/// 2^64-1 (negative values as their two's complement). `undefined` and `null` are 0.
fn read_value(v: &JsValue) -> Result<u64, String> {
    if v.is_undefined() || v.is_null() {
        return Ok(0);
    }
    if let Some(s) = v.as_string() {
        return ptxlab_core::value::parse_value(&s, 64, None);
    }
    if v.is_bigint() {
        if let Ok(x) = u64::try_from(v.clone()) {
            return Ok(x);
        }
        if let Ok(x) = i64::try_from(v.clone()) {
            return Ok(x as u64);
        }
        let shown = js_sys::BigInt::from(v.clone())
            .to_string(10)
            .map(String::from)
            .unwrap_or_default();
        return Err(format!(
            "{shown}n does not fit in 64 bits: BigInts run from -2^63 to 2^64-1"
        ));
    }
    if let Some(x) = v.as_f64() {
        if x.fract() != 0.0 || !x.is_finite() {
            return Err(format!("{x} is not a value: numbers must be integers"));
        }
        if x.abs() > MAX_SAFE {
            return Err(format!(
                "{x} is beyond the integers a number holds exactly (2^53): pass a hex string \
                 or a BigInt"
            ));
        }
        return Ok(x as i64 as u64);
    }
    Err(format!(
        "'{}' is not a value: give a string (0x1234, 42, -5, 0b101), a number or a BigInt",
        v.js_typeof().as_string().unwrap_or_default()
    ))
}

/// An axis given to [`sweep`]: `undefined` (the default), an index into the suggested axes, or
/// an object `{operand, lo, width, signed, start, step, steps}` (operand `0..3` or a name).
fn read_axis(
    v: &JsValue,
    which: &str,
    suggested: &[SweepAxis],
) -> Result<Option<SweepAxis>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    if let Some(i) = v.as_f64() {
        return suggested
            .get(i as usize)
            .filter(|_| i >= 0.0 && i.fract() == 0.0)
            .cloned()
            .map(Some)
            .ok_or_else(|| {
                error(&format!(
                    "{which}: axis {i} does not exist: this instruction has {} axes (0 to {})",
                    suggested.len(),
                    suggested.len().saturating_sub(1)
                ))
            });
    }
    let num = |key: &str, default: u64| -> Result<u64, JsValue> {
        let f = get(v, key)?;
        if f.is_undefined() {
            return Ok(default);
        }
        read_value(&f).map_err(|m| error(&format!("{which}.{key}: {m}")))
    };
    let op = get(v, "operand")?;
    let operand = match op.as_string().as_deref() {
        Some("a") => 0,
        Some("b") => 1,
        Some("c") => 2,
        Some("e") => 3,
        Some(other) => {
            return Err(error(&format!(
                "{which}.operand: unknown operand '{other}': sources are a, b, c and e"
            )))
        }
        None => num("operand", 0)? as usize,
    };
    if operand > 3 {
        return Err(error(&format!(
            "{which}.operand: {operand} is not a source: use 0 to 3 or a, b, c, e"
        )));
    }
    let lo = num("lo", 0)?;
    let width = num("width", 8)?;
    if width == 0 || width > 64 || lo > 63 {
        return Err(error(&format!(
            "{which}: the field must lie in bits 0 to 63 with a width of 1 to 64 (lo {lo}, width {width})"
        )));
    }
    let signed = get(v, "signed")?.is_truthy();
    let label = get(v, "label")?.as_string().unwrap_or_else(|| {
        format!(
            "{} bits {}..{}",
            ["a", "b", "c", "e"][operand],
            lo + width - 1,
            lo
        )
    });
    let mut axis = SweepAxis::field(label, operand, lo as u32, width as u32, signed);
    let steps = num("steps", u64::from(axis.steps))?;
    if steps == 0 || steps > u64::from(sw::MAX_STEPS) {
        return Err(error(&format!(
            "{which}.steps: {steps} steps: an axis takes 1 to {} steps",
            sw::MAX_STEPS
        )));
    }
    axis = axis.clone().with_range(
        num("start", axis.start)?,
        num("step", axis.step)?,
        steps as u32,
    );
    Ok(Some(axis))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_offsets_count_code_units() {
        assert_eq!(utf16_index("abc", 2), 2);
        // 'é' is 2 bytes and 1 code unit; '😀' is 4 bytes and 2 code units.
        assert_eq!(utf16_index("é😀x", 2), 1);
        assert_eq!(utf16_index("é😀x", 6), 3);
        assert_eq!(
            utf16_index("é😀x", 4),
            1,
            "inside a character: back to its start"
        );
        assert_eq!(utf16_index("ab", 99), 2);
    }

    #[test]
    fn line_spans_in_utf16() {
        let text = "mov.b32 %r1, 1;\r\n// é😀\nbra L;";
        assert_eq!(line_span(text, 1), (0, 15));
        assert_eq!(line_span(text, 2), (17, 23));
        assert_eq!(line_span(text, 3), (24, 30));
        assert_eq!(line_span(text, 9), (30, 30));
        assert_eq!(line_span("", 1), (0, 0));
    }

    #[test]
    fn values_fit_their_width() {
        assert!(fits(0xffff_ffff, 32));
        assert!(fits(-1i64 as u64, 32));
        assert!(fits(-(1i64 << 31) as u64, 32));
        assert!(!fits(-(1i64 << 31) as u64 - 1, 32));
        assert!(!fits(1 << 32, 32));
        assert!(fits(u64::MAX, 64));
        assert_eq!(hex(1, 1), "0x1");
        assert_eq!(hex(0xab, 32), "0x000000ab");
    }

    #[test]
    fn unknown_intrinsics_name_the_closest() {
        let m = unknown_intrinsic("vcmpgtu");
        assert!(m.contains("__vcmpgtu4") && m.contains("__vcmpgtu2"), "{m}");
        assert_eq!(unknown_intrinsic("zzzz"), "unknown intrinsic 'zzzz'");
    }

    #[test]
    fn signed_reading_of_the_destination() {
        assert_eq!(signed_of(0xff, 8), -1);
        assert_eq!(signed_of(0x7f, 8), 127);
        assert_eq!(signed_of(u64::MAX, 64), -1);
        assert_eq!(signed_of(0x8000_0000, 32), i64::from(i32::MIN));
    }
}
