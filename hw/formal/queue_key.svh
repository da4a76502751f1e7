// The ordering queue's chain key (hw::ordering_queue; decoded in hw::slice_unit's
// FormDecode), shared by the queue's harness (queue_props.sv, which assumes the push
// contract below) and the registered unit's accept stage's (accept_props.sv, which proves
// it). Included at the top of a harness file, before its module.
// KB bits: chainable KB - 1, fast KB - 2, long KB - 3, and below them the FP unit (8..7),
// the size code (6..4: bytes 2^size) and the byte offset in the line (3..0).
// Defines: KB (default 12), CHAIN_WAIT (a chain's window, default 1), CHAIN_WAIT_LONG (a
// key with the long bit, default CHAIN_WAIT).
`ifndef KB
`define KB 12
`endif
`define KCH (`KB - 1)
`define KFA (`KB - 2)
`define KLO (`KB - 3)
`ifndef CHAIN_WAIT
`define CHAIN_WAIT 5'd1
`endif
`ifndef CHAIN_WAIT_LONG
`define CHAIN_WAIT_LONG `CHAIN_WAIT
`endif
// Chain-equal keys: chainable, equal but for the fast bit; fast-equal: chainable and fast,
// equal in all bits.
`define KMASK (~(32'd1 << `KFA))

// A key's chain window: the long one with the long bit.
function [4:0] cwait(input [`KB-1:0] key);
    cwait = key[`KLO] ? `CHAIN_WAIT_LONG : `CHAIN_WAIT;
endfunction

// The 32-bit words of its line a fast key's access touches: two from the offset's word for
// 8 bytes, one for fewer, all four for more.
function [3:0] key_words(input [`KB-1:0] key);
    key_words = key[6:4] == 3'd3 ? (4'b0011 << key[3:2]) : key[6:4] < 3'd3 ? (4'b0001 << key[3:2]) : 4'b1111;
endfunction

// The push contract of a registered push's key: a chainable entry's own window is at least
// its chain's, and a fast key names the words its access touches (so entries to one line
// with fast-equal keys touch the same words).
function key_ok(input [`KB-1:0] key, input [4:0] wait_, input [3:0] words);
    key_ok = (!key[`KCH] || wait_ >= cwait(key)) && (!(key[`KCH] && key[`KFA]) || words == key_words(key));
endfunction
