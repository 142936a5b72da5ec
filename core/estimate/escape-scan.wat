;; The escape count of a string's JSON, read from its UTF-8 bytes sixteen at a time.
;; Source of core/estimate/escape-scan-module.ts (regenerate with `npm run build:wasm`).
;;
;; UTF-8 writes every character above U+007F as bytes 0x80 and up, so the bytes that need escaping
;; ('"', '\', the controls) stand for exactly the UTF-16 units that do. Two things the bytes
;; cannot settle are flagged for the caller instead: a control other than \t \n \r (its escape is
;; long, or \b \f), and a 0xEF byte (an encoder writes a lone surrogate as U+FFFD, EF BF BD).
(module
  (memory (export "memory") 4)
  ;; scan(len): in bytes [0, len), how many are '"', '\' or below 0x20; plus RARE_CONTROL (1 << 28)
  ;; and LEAD_EF (1 << 29) when those occur. Bytes [len, len + 16) are overwritten.
  (func (export "scan") (param $len i32) (result i32)
    (local $i i32) (local $n i32) (local $v v128) (local $lt v128) (local $odd v128) (local $ef v128)
    (local $space v128) (local $quote v128) (local $slash v128) (local $tab v128) (local $nl v128) (local $cr v128) (local $lead v128)
    (local.set $space (i8x16.splat (i32.const 0x20)))
    (local.set $quote (i8x16.splat (i32.const 0x22)))
    (local.set $slash (i8x16.splat (i32.const 0x5c)))
    (local.set $tab (i8x16.splat (i32.const 0x09)))
    (local.set $nl (i8x16.splat (i32.const 0x0a)))
    (local.set $cr (i8x16.splat (i32.const 0x0d)))
    (local.set $lead (i8x16.splat (i32.const 0xef)))
    ;; Spaces after the end make the last vector whole: a space needs no escape.
    (v128.store (local.get $len) (local.get $space))
    (block $done
      (loop $vector
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $v (v128.load (local.get $i)))
        (local.set $lt (i8x16.lt_u (local.get $v) (local.get $space)))
        (local.set $n (i32.add (local.get $n)
          (i32.popcnt (i8x16.bitmask
            (v128.or (local.get $lt)
              (v128.or (i8x16.eq (local.get $v) (local.get $quote)) (i8x16.eq (local.get $v) (local.get $slash))))))))
        (local.set $odd (v128.or (local.get $odd)
          (v128.andnot (local.get $lt)
            (v128.or (i8x16.eq (local.get $v) (local.get $nl))
              (v128.or (i8x16.eq (local.get $v) (local.get $tab)) (i8x16.eq (local.get $v) (local.get $cr)))))))
        (local.set $ef (v128.or (local.get $ef) (i8x16.eq (local.get $v) (local.get $lead))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $vector)))
    (i32.or (local.get $n)
      (i32.or
        (select (i32.const 0x10000000) (i32.const 0) (v128.any_true (local.get $odd)))
        (select (i32.const 0x20000000) (i32.const 0) (v128.any_true (local.get $ef)))))))
