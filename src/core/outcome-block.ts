/**
 * The outcome block as text of the .battle language. The writer and the parser agree: what is
 * written here parses back to the same results (a test round-trips every example).
 */
import type { DiceChoice, OutcomeLineText, Resolution } from './resolution.js';

export function formatFact([key, value]: [string, number | string | true]): string {
    if (value === true) return key;
    if (typeof value === 'number') return `${key} ${value > 0 && key === 'mod' ? '+' : ''}${value}`;
    return `${key} ${JSON.stringify(value)}`;
}

export function formatOutcomeLine(line: OutcomeLineText): string {
    const facts = line.facts.map(f => `, ${formatFact(f)}`).join('');
    return `${line.unit}: ${line.result}${facts}${line.opponent ? ` vs ${line.opponent}` : ''}`;
}

/**
 * `outcome seed 42 check "…" { summary "…" … }`, indented to sit inside its action.
 * `indent` is the action's own indentation; lines inside get one more level.
 */
export function outcomeBlock(resolution: Resolution, dice: DiceChoice, indent: string, eol = '\n'): string {
    const inner = indent + '  ';
    const head = dice.kind === 'seed' ? `outcome seed ${dice.seed}${rerollText(dice.reroll)}` : 'outcome entered';
    const out = [`${inner}${head} check "${resolution.json.check}" {`];
    out.push(`${inner}  summary ${JSON.stringify(resolution.json.summary)}`);
    for (const line of resolution.lines) out.push(`${inner}  ${formatOutcomeLine(line)}`);
    out.push(`${inner}}`);
    return out.join(eol);
}

/** ` reroll 2` after the seed of an outcome re-rolled twice; nothing for one never re-rolled. */
function rerollText(reroll: number | undefined): string {
    return reroll ? ` reroll ${reroll}` : '';
}

/** How a written outcome's dice read for the umpire: "seed 42", "seed 42, re-rolled twice", "dice entered at the table". */
export function diceText(dice: DiceChoice, entered = 'dice entered at the table'): string {
    if (dice.kind === 'entered') return entered;
    return `seed ${dice.seed}${rerolledText(dice.reroll)}`;
}

/** ", re-rolled once", ", re-rolled 3 times", or nothing. */
export function rerolledText(reroll: number | undefined): string {
    if (!reroll) return '';
    return `, re-rolled ${reroll === 1 ? 'once' : reroll === 2 ? 'twice' : `${reroll} times`}`;
}
