//! ptxlab-core as a JavaScript module, without the playground around it.
//!
//! `scripts/build-api.sh` builds this crate for `wasm32-unknown-unknown` and runs the
//! wasm-bindgen CLI with `--target web`, giving `dist/api/ptxlab.js` (an ES module) and
//! `dist/api/ptxlab_bg.wasm`. After `await init()` the module exports [`check`], [`evaluate`],
//! [`compare`], [`axes`], [`sweep`] and [`version`].
//!
//! Operand values may be hex strings (`"0x7f"`), any string the `ptxlab` tool reads (`"-5"`,
//! `"0b101"`), safe-integer numbers or `BigInt`s; missing sources are 0. Every 64-bit value that
//! comes back is a `BigInt` or a string, never a number that could lose bits. Bad input throws
//! an `Error` whose message is the one `ptxlab eval` prints for the same input.

use js_sys::{Array, BigUint64Array, Object, Reflect, Uint16Array};
use ptxlab_core::sweep::{self as sw, SweepAxis};
use ptxlab_core::trace::Flag;
use ptxlab_core::{
    check as core_check, compare_readings, evaluate_traced_reading, widths, Diagnostic, Inputs,
    Instruction, Reading,
};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The version of this module (that of the `ptxlab-js` crate, equal to `ptxlab-core`'s).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Parse and validate `text`. Returns `{ok: true, canonical, opcode}` or `{ok: false, message,
/// allowed, start, end}`, where `start..end` is the offending token in JavaScript string
/// indices (UTF-16 code units). Never throws for bad instruction text.
#[wasm_bindgen]
pub fn check(text: JsValue) -> Result<JsValue, JsValue> {
    let text = instruction_text(&text)?;
    let out = Object::new();
    match core_check(&text) {
        Ok(insn) => {
            set(&out, "ok", &JsValue::TRUE);
            set(&out, "canonical", &insn.canonical().into());
            set(&out, "opcode", &insn.opcode.name().into());
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

/// Evaluate `text` with sources `inputs` (`{a, b, c, e}`, each optional). `options.reading` may
/// be `"hardware"` (the default: what an H100 computes) or `"text"` (the ISA text taken
/// literally). Returns `{d, value, signed, bits, trace}`: `d` in hex padded to the destination
/// width, `value` and `signed` as `BigInt`s, `bits` the destination width and `trace` the whole
/// stage-by-stage trace as a plain object.
#[wasm_bindgen]
pub fn evaluate(text: JsValue, inputs: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let (text, insn) = instruction(&text)?;
    let inputs = read_inputs(&inputs)?;
    let reading = match get(&options, "reading")?.as_string().as_deref() {
        None | Some("hardware") => Reading::Hardware,
        Some("text") => Reading::Text,
        Some(other) => {
            return Err(error(&format!(
                "--reading takes 'hardware' or 'text', not \"{other}\""
            )))
        }
    };
    let _ = text;
    let t = evaluate_traced_reading(&insn, &inputs, reading);
    let bits = widths(&insn).dst;
    let raw = t.result.raw() as u64;
    let out = Object::new();
    set(&out, "d", &t.views.hex.clone().into());
    set(&out, "value", &JsValue::from(raw));
    set(&out, "signed", &JsValue::from(signed_of(raw, bits)));
    set(&out, "bits", &bits.into());
    set(&out, "trace", &to_js(&t)?);
    Ok(out.into())
}

/// Both readings of one case: `null` when the ISA text taken literally gives the H100's value,
/// otherwise where the two part (`{hardware, text, stage, kind, hardwareStage, textStage,
/// difference}` with the values as `BigInt`s).
#[wasm_bindgen]
pub fn compare(text: JsValue, inputs: JsValue) -> Result<JsValue, JsValue> {
    let (_, insn) = instruction(&text)?;
    let inputs = read_inputs(&inputs)?;
    match compare_readings(&insn, &inputs) {
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
    let inputs = read_inputs(&inputs)?;
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

/// The checked instruction, or an `Error` with the message and caret line `ptxlab eval` prints
/// (and `start`, `end` properties locating the token).
fn instruction(text: &JsValue) -> Result<(String, Instruction), JsValue> {
    let text = instruction_text(text)?;
    match core_check(&text) {
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

/// The source values in `inputs` (an object with keys among `a`, `b`, `c`, `e`).
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
            _ => {
                return Err(error(&format!(
                    "unknown operand '{k}': sources are a, b, c and e"
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
    fn signed_reading_of_the_destination() {
        assert_eq!(signed_of(0xff, 8), -1);
        assert_eq!(signed_of(0x7f, 8), 127);
        assert_eq!(signed_of(u64::MAX, 64), -1);
        assert_eq!(signed_of(0x8000_0000, 32), i64::from(i32::MIN));
    }
}
