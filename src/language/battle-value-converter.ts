/**
 * Numbers as the parser reads them. A half-typed signed number (`grade Elite +` at the end of a line)
 * converts to NaN, which no check or engine expects: the odds of every unit it touched summed to 0
 * (found by npm run fuzz). The syntax error is reported; the value reads as 0 meanwhile.
 * A band is kept as written.
 *
 * Langium's converter works out the conversion again for every token it converts (150,000 at 50,000
 * lines): the grammar element's type, its rule's name upper-cased, the rule's type. Here the conversion
 * is worked out once per grammar element (and per rule) and kept; the values are Langium's
 * (docs/performance.md, "The parser's costs per node").
 */
import { DefaultValueConverter, GrammarAST, GrammarUtils, ValueConverter, type CstNode, type ValueType } from 'langium';

type Conversion = (input: string) => ValueType;

/** The text as written: a keyword, a rule of no known type, a band. */
const asWritten: Conversion = input => input;

/** A number, 0 for one half typed (NaN). */
const orZero = (convert: (input: string) => number): Conversion => input => {
    const value = convert(input);
    return Number.isNaN(value) ? 0 : value;
};

export class BattleValueConverter extends DefaultValueConverter {
    /** The conversion of each grammar element seen: the same for every token it reads. */
    private readonly byElement = new Map<GrammarAST.AbstractElement | undefined, Conversion>();
    private readonly byRule = new Map<GrammarAST.AbstractRule, Conversion>();

    override convert(input: string, cstNode: CstNode): ValueType {
        const element = cstNode.grammarSource;
        let conversion = this.byElement.get(element);
        if (conversion === undefined) {
            conversion = this.conversionOf(element);
            this.byElement.set(element, conversion);
        }
        return conversion(input);
    }

    protected override runConverter(rule: GrammarAST.AbstractRule, input: string): ValueType {
        return this.conversionOfRule(rule)(input);
    }

    /** Langium's `convert`: a cross-reference reads as its terminal, a rule call by its rule, anything else as written. */
    private conversionOf(element: GrammarAST.AbstractElement | undefined): Conversion {
        let feature = element;
        if (GrammarAST.isCrossReference(feature)) feature = GrammarUtils.getCrossReferenceTerminal(feature);
        if (!GrammarAST.isRuleCall(feature)) return asWritten;
        const rule = feature.rule.ref;
        if (!rule) return () => { throw new Error('This cst node was not parsed by a rule.'); };
        return this.conversionOfRule(rule);
    }

    private conversionOfRule(rule: GrammarAST.AbstractRule): Conversion {
        let conversion = this.byRule.get(rule);
        if (conversion === undefined) {
            conversion = conversionFor(rule);
            this.byRule.set(rule, conversion);
        }
        return conversion;
    }
}

/** Langium's `runConverter` (parser/value-converter.js), chosen once per rule, with the repairs above. */
function conversionFor(rule: GrammarAST.AbstractRule): Conversion {
    // A band (`3..4`, `5..`) stays the text written: the house checks read it (src/core/bands.ts
    // parseBand) and explain a malformed one (`4...5`) instead of the parser turning it into a number.
    if (rule.name === 'BAND') return asWritten;
    switch (rule.name.toUpperCase()) {
        case 'INT': return orZero(ValueConverter.convertInt);
        case 'STRING': return ValueConverter.convertString;
        case 'ID': return ValueConverter.convertID;
    }
    switch (GrammarUtils.getRuleType(rule)?.toLowerCase()) {
        case 'number': return orZero(ValueConverter.convertNumber);
        case 'boolean': return ValueConverter.convertBoolean;
        case 'bigint': return ValueConverter.convertBigint;
        case 'date': return ValueConverter.convertDate;
        default: return asWritten;
    }
}
