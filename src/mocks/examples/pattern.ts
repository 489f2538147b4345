/**
 * A string that matches a JSON Schema `pattern` (an ECMA-262 regular expression, matched
 * anywhere in the string), with a length in code points between the schema's `minLength`
 * and `maxLength`. It reads the subset of the syntax API documents use (literals, escapes,
 * `.`, classes with ranges and negation, `\d \w \s` and their negations, groups,
 * alternation, greedy and lazy quantifiers, `^ $ \b \B`) and refuses, with the reason, what
 * it cannot honour (lookaround, backreferences, most `\p{…}`): a wrong example would be
 * worse than none. Every string it returns was checked with the pattern itself
 * (`new RegExp(pattern, "u")`, or without the flag when only that compiles).
 */
import type { Random } from "./random";

type Range = readonly [number, number];
type Node =
  | { readonly kind: "set"; readonly ranges: readonly Range[] }
  | { readonly kind: "seq"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly options: readonly Node[] }
  | { readonly kind: "repeat"; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly kind: "assert"; readonly at: "start" | "end" | "other" };

/** A matching string, or why none was made. */
type PatternResult =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly reason: string };

/** Thrown by the parser for syntax it does not generate from (its message is the reason). */
class Unsupported extends Error {}

const MAX_CODE_POINT = 0x10ffff;
/** How many characters beyond the shortest match an unbounded pattern may produce. */
const SPREAD = 10;
const ATTEMPTS = 8;

const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
/** `\p{…}` names it knows, each as ASCII members of the property (enough to make a match). */
const PROPERTIES: Readonly<Record<string, readonly Range[]>> = {
  L: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  Lu: [[0x41, 0x5a]],
  Ll: [[0x61, 0x7a]],
  N: DIGIT,
  Nd: DIGIT,
};
const PROPERTY_ALIASES: Readonly<Record<string, string>> = {
  Letter: "L",
  Alphabetic: "L",
  Alpha: "L",
  "Script=Latin": "L",
  "sc=Latin": "L",
  Uppercase_Letter: "Lu",
  Uppercase: "Lu",
  Lowercase_Letter: "Ll",
  Lowercase: "Ll",
  Number: "N",
  Decimal_Number: "Nd",
  digit: "Nd",
};
/** Where a character is drawn from, in order of preference: readable ones first. */
const POOLS: readonly (readonly Range[])[] = [
  [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  [[0x20, 0x7e]],
  [
    [0xa0, 0xd7ff],
    [0xe000, 0xfffd],
  ],
  [[0x10000, MAX_CODE_POINT]],
  [[0, MAX_CODE_POINT]],
];

const cp = (char: string): number => char.codePointAt(0) ?? 0;

/** Sorted, non-overlapping, merged. */
function normalise(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalise(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function intersect(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [alo, ahi] of a) {
    for (const [blo, bhi] of b) {
      const lo = Math.max(alo, blo);
      const hi = Math.min(ahi, bhi);
      if (lo <= hi) out.push([lo, hi]);
    }
  }
  return out;
}

const isHex = (c: number | undefined): boolean =>
  c !== undefined && /[0-9a-f]/i.test(String.fromCodePoint(c));

/** A class atom: one code point (which may start a range) or a class escape's set. */
type ClassAtom = { readonly point?: number; readonly ranges: readonly Range[] };

/** A recursive-descent reader of the pattern's code points into a `Node`. */
class Parser {
  private pos = 0;
  private readonly cps: readonly number[];

  constructor(pattern: string) {
    this.cps = Array.from(pattern, cp);
  }

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.cps.length) throw new Unsupported("an unbalanced `)`");
    return node;
  }

  private peek(offset = 0): number | undefined {
    return this.cps[this.pos + offset];
  }

  private eat(char: string): boolean {
    if (this.peek() !== cp(char)) return false;
    this.pos += 1;
    return true;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.eat("|")) options.push(this.sequence());
    return options.length === 1 ? (options[0] as Node) : { kind: "alt", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== cp("|") && c !== cp(")"); c = this.peek()) {
      items.push(this.quantified(this.atom()));
    }
    return items.length === 1 ? (items[0] as Node) : { kind: "seq", items };
  }

  private atom(): Node {
    const c = this.cps[this.pos++] as number;
    switch (String.fromCodePoint(c)) {
      case "^":
        return { kind: "assert", at: "start" };
      case "$":
        return { kind: "assert", at: "end" };
      case "(":
        return this.group();
      case "[":
        return this.characterClass();
      case ".":
        return { kind: "set", ranges: complement(LINE_TERMINATORS) };
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
        throw new Unsupported("a quantifier with nothing to repeat");
      default:
        return { kind: "set", ranges: [[c, c]] };
    }
  }

  private group(): Node {
    if (this.eat("?")) {
      if (this.eat(":")) return this.groupBody();
      if (this.peek() === cp("=") || this.peek() === cp("!")) {
        throw new Unsupported("a lookahead (`(?=` or `(?!`)");
      }
      if (this.eat("<")) {
        if (this.peek() === cp("=") || this.peek() === cp("!")) {
          throw new Unsupported("a lookbehind (`(?<=` or `(?<!`)");
        }
        while (this.peek() !== undefined && !this.eat(">")) this.pos += 1;
        return this.groupBody();
      }
      throw new Unsupported("a group modifier such as `(?i)`");
    }
    return this.groupBody();
  }

  private groupBody(): Node {
    const inner = this.alternation();
    if (!this.eat(")")) throw new Unsupported("an unclosed group");
    return inner;
  }

  private quantified(atom: Node): Node {
    let bounds: readonly [number, number] | undefined;
    if (this.eat("*")) bounds = [0, Number.POSITIVE_INFINITY];
    else if (this.eat("+")) bounds = [1, Number.POSITIVE_INFINITY];
    else if (this.eat("?")) bounds = [0, 1];
    else if (this.peek() === cp("{")) bounds = this.braces();
    if (!bounds) return atom;
    this.eat("?"); // lazy: the same strings match
    if (bounds[0] > bounds[1]) throw new Unsupported("a quantifier `{n,m}` with n > m");
    return { kind: "repeat", node: atom, min: bounds[0], max: bounds[1] };
  }

  /** `{n}`, `{n,}` or `{n,m}`; anything else leaves the `{` to be read as a literal. */
  private braces(): readonly [number, number] | undefined {
    const rest = String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 24));
    const match = /^\{(\d+)(,(\d*))?\}/.exec(rest);
    if (!match) return undefined;
    this.pos += Array.from(match[0]).length;
    const min = Number(match[1]);
    if (match[2] === undefined) return [min, min];
    return [min, match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY];
  }

  private characterClass(): Node {
    const negated = this.eat("^");
    const ranges: Range[] = [];
    while (!this.eat("]")) {
      if (this.peek() === undefined) throw new Unsupported("an unclosed character class");
      const first = this.classAtom();
      const dash =
        this.peek() === cp("-") && this.peek(1) !== cp("]") && this.peek(1) !== undefined;
      if (first.point !== undefined && dash) {
        this.pos += 1;
        const last = this.classAtom();
        if (last.point === undefined) {
          ranges.push(...first.ranges, [cp("-"), cp("-")], ...last.ranges);
        } else if (last.point < first.point) {
          throw new Unsupported("a class range out of order");
        } else {
          ranges.push([first.point, last.point]);
        }
      } else {
        ranges.push(...first.ranges);
      }
    }
    return { kind: "set", ranges: negated ? complement(ranges) : normalise(ranges) };
  }

  private classAtom(): ClassAtom {
    const c = this.cps[this.pos++] as number;
    if (c !== cp("\\")) return { point: c, ranges: [[c, c]] };
    if (this.eat("b")) return { point: 0x08, ranges: [[0x08, 0x08]] };
    if (this.eat("-")) return { point: cp("-"), ranges: [[cp("-"), cp("-")]] };
    const node = this.escape();
    if (node.kind !== "set") throw new Unsupported("an assertion inside a character class");
    const only = node.ranges.length === 1 ? node.ranges[0] : undefined;
    return only && only[0] === only[1] ? { point: only[0], ranges: node.ranges } : node;
  }

  /** After a `\`: a set (one code point or a class escape) or an assertion. */
  private escape(): Node {
    const c = this.cps[this.pos++];
    if (c === undefined) throw new Unsupported("a trailing `\\`");
    const char = String.fromCodePoint(c);
    const set = (ranges: readonly Range[], negated = false): Node => ({
      kind: "set",
      ranges: negated ? complement(ranges) : ranges,
    });
    const point = (p: number): Node => ({ kind: "set", ranges: [[p, p]] });
    switch (char) {
      case "d":
      case "D":
        return set(DIGIT, char === "D");
      case "w":
      case "W":
        return set(WORD, char === "W");
      case "s":
      case "S":
        return set(SPACE, char === "S");
      case "b":
      case "B":
        return { kind: "assert", at: "other" };
      case "t":
        return point(0x09);
      case "n":
        return point(0x0a);
      case "v":
        return point(0x0b);
      case "f":
        return point(0x0c);
      case "r":
        return point(0x0d);
      case "0":
        if (this.peek() !== undefined && /\d/.test(String.fromCodePoint(this.peek() as number))) {
          throw new Unsupported("an octal escape");
        }
        return point(0);
      case "x":
        return point(this.hex(2) ?? c);
      case "u":
        return point(this.unicodeEscape());
      case "c": {
        const letter = this.peek();
        if (letter === undefined || !/[a-z]/i.test(String.fromCodePoint(letter))) return point(c);
        this.pos += 1;
        return point(letter % 32);
      }
      case "p":
      case "P":
        return set(this.property(), char === "P");
      case "k":
        if (this.peek() === cp("<")) throw new Unsupported("a named backreference (`\\k<…>`)");
        return point(c);
      default:
        if (/[1-9]/.test(char)) throw new Unsupported("a backreference (`\\1`…`\\9`)");
        return point(c);
    }
  }

  /** `count` hex digits as a code point, or undefined (and nothing read) when they are not. */
  private hex(count: number): number | undefined {
    const digits = this.cps.slice(this.pos, this.pos + count);
    if (digits.length < count || !digits.every(isHex)) return undefined;
    this.pos += count;
    return Number.parseInt(String.fromCodePoint(...digits), 16);
  }

  /** After `\u`: `{h…}`, or four hex digits (a surrogate pair written as two escapes joins). */
  private unicodeEscape(): number {
    if (this.eat("{")) {
      const start = this.pos;
      while (isHex(this.peek())) this.pos += 1;
      const value = Number.parseInt(String.fromCodePoint(...this.cps.slice(start, this.pos)), 16);
      if (!this.eat("}") || !(value <= MAX_CODE_POINT)) {
        throw new Unsupported("a malformed `\\u{…}` escape");
      }
      return value;
    }
    const high = this.hex(4);
    if (high === undefined) return cp("u");
    if (high >= 0xd800 && high <= 0xdbff && this.peek() === cp("\\") && this.peek(1) === cp("u")) {
      this.pos += 2;
      const low = this.hex(4);
      if (low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
        return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      }
      this.pos -= low === undefined ? 2 : 6;
    }
    return high;
  }

  private property(): readonly Range[] {
    const rest = String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 64));
    const match = /^\{([A-Za-z_=]+)\}/.exec(rest);
    if (!match) throw new Unsupported("a malformed `\\p{…}` escape");
    this.pos += match[0].length;
    const name = match[1] as string;
    const known = PROPERTIES[PROPERTY_ALIASES[name] ?? name.replace(/^(General_Category|gc)=/, "")];
    if (!known) throw new Unsupported(`the Unicode property \`\\p{${name}}\``);
    return known;
  }
}

const LENGTHS = new WeakMap<Node, readonly [number, number]>();

/** The shortest and longest strings `node` matches, in code points (the longest may be ∞). */
function lengths(node: Node): readonly [number, number] {
  const known = LENGTHS.get(node);
  if (known) return known;
  let result: readonly [number, number];
  switch (node.kind) {
    case "set":
      result = [1, 1];
      break;
    case "assert":
      result = [0, 0];
      break;
    case "seq":
      result = node.items.map(lengths).reduce((a, b) => [a[0] + b[0], a[1] + b[1]], [0, 0]);
      break;
    case "alt": {
      const all = node.options.map(lengths);
      result = [Math.min(...all.map((l) => l[0])), Math.max(...all.map((l) => l[1]))];
      break;
    }
    case "repeat": {
      const [a, b] = lengths(node.node);
      result = [node.min * a, node.max === 0 || b === 0 ? 0 : node.max * b];
      break;
    }
  }
  LENGTHS.set(node, result);
  return result;
}

/** Whether every match of `node` begins (or ends) at an anchor, so no padding may go there. */
function anchored(node: Node, side: "start" | "end"): boolean {
  switch (node.kind) {
    case "assert":
      return node.at === side;
    case "seq": {
      const edge = side === "start" ? node.items[0] : node.items[node.items.length - 1];
      return edge !== undefined && anchored(edge, side);
    }
    case "alt":
      return node.options.every((option) => anchored(option, side));
    default:
      return false;
  }
}

/** Sizes for parts of the given [min, max] lengths that add up to `target`, when they can. */
function distribute(target: number, parts: readonly (readonly [number, number])[], rand: Random) {
  const sizes = parts.map((p) => p[0]);
  let rest = target - sizes.reduce((a, b) => a + b, 0);
  const order = rand.shuffle(parts.map((_, i) => i));
  for (const greedy of [false, true]) {
    for (const i of order) {
      if (rest <= 0) return sizes;
      const room = Math.min(
        (parts[i] as readonly [number, number])[1] - (sizes[i] as number),
        rest,
      );
      const give = greedy ? room : rand.int(0, room);
      sizes[i] = (sizes[i] as number) + give;
      rest -= give;
    }
  }
  return sizes;
}

/** A code point of `ranges`, readable ones preferred; undefined when the set is empty. */
function sample(ranges: readonly Range[], rand: Random): number | undefined {
  for (const pool of POOLS) {
    const inside = intersect(ranges, pool);
    const total = inside.reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
    if (total === 0) continue;
    let index = rand.int(0, total - 1);
    for (const [lo, hi] of inside) {
      if (index <= hi - lo) return lo + index;
      index -= hi - lo + 1;
    }
  }
  return undefined;
}

/** How many times a repeat runs, so that its parts can make `target` characters. */
function repeatCount(node: Extract<Node, { kind: "repeat" }>, target: number, rand: Random) {
  const [a, b] = lengths(node.node);
  let low = node.min;
  let high = node.max;
  if (b > 0 && Number.isFinite(b)) low = Math.max(low, Math.ceil(target / b));
  high = a > 0 ? Math.min(high, Math.floor(target / a)) : Math.min(high, Math.max(low, target));
  if (low > high) return Math.min(Math.max(node.min, high), node.max);
  return rand.int(low, Math.min(high, low + SPREAD));
}

/** Appends to `out` code points that `node` matches, `target` of them where it can. */
function emit(node: Node, target: number, rand: Random, out: number[]): void {
  switch (node.kind) {
    case "assert":
      return;
    case "set": {
      const point = sample(node.ranges, rand);
      if (point === undefined) throw new Unsupported("a character class that matches nothing");
      out.push(point);
      return;
    }
    case "seq": {
      const sizes = distribute(target, node.items.map(lengths), rand);
      node.items.forEach((item, i) => {
        emit(item, sizes[i] as number, rand, out);
      });
      return;
    }
    case "alt": {
      const fits = node.options.filter((o) => lengths(o)[0] <= target && target <= lengths(o)[1]);
      const distance = (o: Node) => Math.max(lengths(o)[0] - target, target - lengths(o)[1]);
      const nearest = [...node.options].sort((x, y) => distance(x) - distance(y));
      emit(fits.length > 0 ? rand.pick(fits) : (nearest[0] as Node), target, rand, out);
      return;
    }
    case "repeat": {
      const count = repeatCount(node, target, rand);
      const parts = Array.from({ length: count }, () => lengths(node.node));
      for (const size of distribute(target, parts, rand)) emit(node.node, size, rand, out);
    }
  }
}

const PADDING = "abcdefghijklmnopqrstuvwxyz";

/** One try: a match of a length within the bounds, padded on a free side when too short. */
function attempt(
  ast: Node,
  rand: Random,
  minLength: number,
  maxLength: number,
): string | undefined {
  const [shortest, longest] = lengths(ast);
  const lo = Math.max(minLength, shortest);
  const hi = Math.min(maxLength, longest);
  const free = { start: !anchored(ast, "start"), end: !anchored(ast, "end") };
  let target: number;
  if (lo <= hi) target = rand.int(lo, Math.min(hi, lo + SPREAD));
  else if (shortest <= maxLength && (free.start || free.end)) target = hi;
  else return undefined;
  const out: number[] = [];
  emit(ast, target, rand, out);
  while (out.length < minLength && (free.start || free.end)) {
    const pad = cp(rand.pick(Array.from(PADDING)));
    if (free.end) out.push(pad);
    else out.unshift(pad);
  }
  return out.length > maxLength ? undefined : String.fromCodePoint(...out);
}

const COMPILED = new Map<string, { readonly ast: Node } | { readonly reason: string }>();
const REGEXPS = new Map<string, RegExp | undefined>();

/**
 * The pattern as JSON Schema validators compile it (`u` flag), or without the flag when
 * only that compiles; undefined when it is not a regular expression at all.
 */
export function patternRegExp(pattern: string): RegExp | undefined {
  if (REGEXPS.has(pattern)) return REGEXPS.get(pattern);
  let regexp: RegExp | undefined;
  for (const flags of ["u", ""]) {
    try {
      regexp = new RegExp(pattern, flags);
      break;
    } catch {}
  }
  REGEXPS.set(pattern, regexp);
  return regexp;
}

function compile(pattern: string): { readonly ast: Node } | { readonly reason: string } {
  const known = COMPILED.get(pattern);
  if (known) return known;
  let compiled: { readonly ast: Node } | { readonly reason: string };
  try {
    compiled = { ast: new Parser(pattern).parse() };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    compiled = { reason: `pattern ${JSON.stringify(pattern)} uses ${error.message}` };
  }
  COMPILED.set(pattern, compiled);
  return compiled;
}

/**
 * A string matching `pattern`, of `minLength` to `maxLength` code points, drawn from
 * `rand`; or why none was made: syntax it does not generate from, or no match found within
 * the bounds in a few tries (each with another fork of `rand`).
 */
export function patternString(
  pattern: string,
  rand: Random,
  minLength = 0,
  maxLength: number = Number.POSITIVE_INFINITY,
): PatternResult {
  const regexp = patternRegExp(pattern);
  if (!regexp) return { ok: false, reason: `pattern ${JSON.stringify(pattern)} does not compile` };
  const compiled = compile(pattern);
  if ("reason" in compiled) return { ok: false, reason: compiled.reason };
  for (let i = 0; i < ATTEMPTS; i += 1) {
    let value: string | undefined;
    try {
      value = attempt(compiled.ast, rand.fork(i), minLength, maxLength);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      return { ok: false, reason: `pattern ${JSON.stringify(pattern)} uses ${error.message}` };
    }
    if (value === undefined) continue;
    const length = Array.from(value).length;
    regexp.lastIndex = 0;
    if (length >= minLength && length <= maxLength && regexp.test(value))
      return { ok: true, value };
  }
  return {
    ok: false,
    reason: `no string of ${minLength} to ${maxLength} characters matching pattern ${JSON.stringify(pattern)} was found in ${ATTEMPTS} tries`,
  };
}
