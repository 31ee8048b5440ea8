/**
 * Fair shuffling, version 1 (docs/record-format.md, "Fair shuffling"): the browser's own
 * implementation with the Web Crypto API, written apart from the server's
 * (server/engine/fair.py), so that the two check each other. No DOM, no page state.
 */

const DOMAIN = new TextEncoder().encode("stammtisch-fair/1");

/**
 * Bytes from hexadecimal text ("" gives no bytes).
 * @param {string} hex
 * @returns {Uint8Array}
 */
export function fromHex(hex) {
  if (!/^([0-9a-f]{2})*$/.test(hex)) throw new Error("not hexadecimal");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Lowercase hexadecimal text of bytes.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A new seed of the player's own: 32 random bytes as 64 hex digits.
 * @returns {string}
 */
export function newSeed() {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * SHA-256 of `bytes`, `times` times over.
 * @param {Uint8Array} bytes
 * @param {number} times
 * @returns {Promise<Uint8Array>}
 */
export async function hashBack(bytes, times) {
  let value = bytes;
  for (let i = 0; i < times; i++) {
    value = new Uint8Array(await crypto.subtle.digest("SHA-256", value));
  }
  return value;
}

/**
 * Whether `seedHex` is the seed of deal `number` (from 1) of the chain whose top hash is
 * `commitmentHex`.
 * @param {string} seedHex
 * @param {number} number
 * @param {string} commitmentHex
 * @returns {Promise<boolean>}
 */
export async function checkReveal(seedHex, number, commitmentHex) {
  if (!/^[0-9a-f]{64}$/.test(seedHex) || !(number >= 1)) return false;
  return toHex(await hashBack(fromHex(seedHex), number)) === commitmentHex;
}

/**
 * The message of stream block `block`.
 * @param {Uint8Array[]} playerSeeds
 * @param {number} block
 * @returns {Uint8Array}
 */
function blockMessage(playerSeeds, block) {
  const parts = [DOMAIN, Uint8Array.of(playerSeeds.length)];
  for (const seed of playerSeeds) parts.push(Uint8Array.of(seed.length), seed);
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(block), false);
  parts.push(counter);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The shuffled pack of a deal: a permutation of 0 … size-1, the first card dealt first.
 * @param {number} size
 * @param {string} dealSeedHex
 * @param {string[]} playerSeedsHex ("" for a player without a seed)
 * @returns {Promise<number[]>}
 */
export async function dealOrder(size, dealSeedHex, playerSeedsHex) {
  const key = await crypto.subtle.importKey(
    "raw", fromHex(dealSeedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
  );
  const seeds = playerSeedsHex.map(fromHex);
  /** @type {number[]} */
  let words = [];
  let block = 0;
  const next = async () => {
    if (!words.length) {
      const mac = new DataView(await crypto.subtle.sign("HMAC", key, blockMessage(seeds, block)));
      block += 1;
      words = [];
      for (let at = 0; at < 32; at += 4) words.push(mac.getUint32(at, false));
    }
    return /** @type {number} */ (words.shift());
  };
  const order = Array.from({ length: size }, (_, i) => i);
  const range = 2 ** 32;
  for (let i = size - 1; i > 0; i--) {
    const bound = i + 1;
    const limit = range - (range % bound);
    let x = await next();
    while (x >= limit) x = await next();
    const j = x % bound;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * Deal `order` packet by packet as the game deals (`dealing`: [seat, count] pairs, seat
 * -1 the talon): each seat's cards and the talon in order, as card codes of `pack`.
 * @param {string[]} pack the pack's card codes by index
 * @param {number[]} order
 * @param {[number, number][]} dealing
 * @returns {{hands: string[][], talon: string[]}}
 */
export function dealPackets(pack, order, dealing) {
  /** @type {string[][]} */
  const hands = [];
  /** @type {string[]} */
  const talon = [];
  let at = 0;
  for (const [seat, count] of dealing) {
    const cards = order.slice(at, at + count).map((index) => pack[index]);
    if (seat === -1) talon.push(...cards);
    else {
      while (hands.length <= seat) hands.push([]);
      hands[seat].push(...cards);
    }
    at += count;
  }
  return { hands, talon };
}
