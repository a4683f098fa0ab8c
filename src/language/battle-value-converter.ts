/**
 * Numbers as the parser reads them. A half-typed signed number (`grade Elite +` at the end of a line)
 * converts to NaN, which no check or engine expects: the odds of every unit it touched summed to 0
 * (found by npm run fuzz, issue 9). The syntax error is reported; the value reads as 0 meanwhile.
 * A band is kept as written.
 */
import { DefaultValueConverter, type CstNode, type GrammarAST, type ValueType } from 'langium';

export class BattleValueConverter extends DefaultValueConverter {
    protected override runConverter(rule: GrammarAST.AbstractRule, input: string, cstNode: CstNode): ValueType {
        // A band (`3..4`, `5..`) stays the text written: the house checks read it (src/core/bands.ts
        // parseBand) and explain a malformed one (`4...5`) instead of the parser turning it into a number.
        if (rule.name === 'BAND') return input;
        const value = super.runConverter(rule, input, cstNode);
        return typeof value === 'number' && Number.isNaN(value) ? 0 : value;
    }
}
