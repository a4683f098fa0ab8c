import { describe, expect, it } from 'vitest';
import { EmptyFileSystem } from 'langium';
import { parseHelper } from 'langium/test';
import { createBattleServices } from '../src/language/battle-module.js';
import type { Scenario } from '../src/language/generated/ast.js';

const services = createBattleServices(EmptyFileSystem).Battle;
const parse = parseHelper<Scenario>(services);

describe('smoke', () => {
    it('parses all statement kinds', async () => {
        const doc = await parse(`
scenario "x"
rules ancients
option break-die d6
grade Elite +2
grade Hoplite { size large, weight heavy, formation formed, skill 2, leadership 7, defensive }
modifier ForcedMarch -1
force Greeks {
  unit Hoplites infantry Hoplite x2 { tokens 1, tested }
  unit Peltasts infantry
}
force Persians { unit Immortals infantry Elite }
engagement E {
  Greeks attacks Persians
  first turn
  Greeks.Hoplites#1: charged
  Greeks.Peltasts: charged
  Greeks.Hoplites#1 flank vs Persians.Immortals front
  Persians.Immortals vs Greeks.Peltasts: front
  split Persians.Immortals 6 on Greeks.Hoplites#1, 4 on Greeks.Peltasts
  factor ForcedMarch on Greeks.Hoplites, Greeks
  dice Greeks foot 4 4 2
  dice Greeks horse 1 4
  Greeks.Peltasts: fort
  seed 42
  outcome seed 42 check "abc" {
    summary "x y"
    Greeks.Hoplites#1: stand-off, die 4, mod +2, adjusted 6 vs Persians.Immortals
    Greeks.Peltasts: gives-ground, hits 3, fled
    Greeks.Hoplites#1: won
  }
}
turn 1 "Dawn" {
  state Greeks.Peltasts: dp 2
  ruling Greeks.Hoplites#2: rallied, reason "IMP"
  fire Volley { Greeks.Peltasts fires at Persians.Immortals: range 9 }
}
`);
        expect(doc.parseResult.lexerErrors).toEqual([]);
        expect(doc.parseResult.parserErrors.map(e => `${e.token.startLine}:${e.token.startColumn} ${e.message}`)).toEqual([]);
        const diags = await services.validation.DocumentValidator.validateDocument(doc);
        expect(diags.map(d => d.message)).toEqual([]);
    });
});
