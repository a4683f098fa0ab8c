/**
 * The Odds chart's labels broken into lines that fit their room (`labelLines`, src/protocol.ts), so
 * that Vega never cuts one: measured here as a monospaced page would, a letter 6 px and a wide
 * character 12 px (string-width's columns).
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { labelLines } from '../../src/protocol.js';

const measure = (text: string) => 6 * stringWidth(text);

describe('a chart label in the room it has', () => {
    it('stays one line when it fits', () => {
        expect(labelLines('French.Ligne#1', 200, measure)).toEqual(['French.Ligne#1']);
    });

    it('breaks a long name after its dot and between the words of a CamelCase name, every line within the room, no letter lost', () => {
        const id = 'SuccessorsOfAlexanderUnderAntigonosTheOneEyed.ThureophoroiOfTheSecondLineUnderPhilipSonOfMachatas';
        const lines = labelLines(id, 120, measure);
        expect(lines.join('')).toBe(id);
        expect(lines.length).toBeGreaterThan(4);
        for (const line of lines) expect(measure(line)).toBeLessThanOrEqual(120);
        expect(lines[0]).toBe('SuccessorsOf');
        expect(lines.some(l => l.endsWith('Eyed.'))).toBe(true);
    });

    it('breaks between wide characters, counting each as two columns', () => {
        const lines = labelLines('武田.騎兵隊騎兵隊騎兵隊', 48, measure);
        expect(lines.join('')).toBe('武田.騎兵隊騎兵隊騎兵隊');
        for (const line of lines) expect(measure(line)).toBeLessThanOrEqual(48);
        expect(lines).toEqual(['武田.騎', '兵隊騎兵', '隊騎兵隊']);
    });

    it('breaks a title at its spaces, and a word longer than the room between letters', () => {
        expect(labelLines('engagement Pass: chance of each result', 120, measure)).toEqual(['engagement Pass:', 'chance of each', 'result']);
        expect(labelLines('Thureophoroi', 30, measure)).toEqual(['Thure', 'ophor', 'oi']);
    });
});
