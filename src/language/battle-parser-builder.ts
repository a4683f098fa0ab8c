/**
 * The parser's rules built from the grammar without objects made at each step of a parse (docs/performance.md,
 * "The parser's costs per node"), on Umpire's parser (battle-parser.ts).
 *
 * Langium 4.4.0's builder (parser/parser-builder-base.js, `createParser`) turns each grammar element into a
 * closure taking the rule's arguments (`args`, for parameterised rules): an alternation makes, at each
 * call, a new array of new `{ ALT }` objects with a new closure each (`methods.map(...)`); a repetition
 * or option a new `{ DEF, GATE }` object and closure; a group a closure for its `forEach`; a rule call a
 * new empty arguments object. At 50,000 lines that was about 100 MB of the 520 MB a cold check
 * allocates, all garbage at once. This grammar has no parameters, guards, unordered groups or infix
 * rules, so nothing depends on `args`: each element's alternatives and options are made once, when the
 * parser is built, and passed again at every call. The parser methods called, their order, and the
 * occurrence numbers (`idx`, numbered in Langium's order) are Langium's, so Chevrotain records the same
 * productions and the parse gives the same tree (test/language/parser-fixes.test.ts compares them).
 * A grammar that uses any of those features is built by Langium's own builder.
 */
import { EOF, type IOrAlt, type TokenType } from 'chevrotain';
import { createParser, GrammarAST, GrammarUtils, type LangiumCoreServices, type LangiumParser } from 'langium';
import { BattleParser } from './battle-parser.js';
import { reachableParserRules } from './grammar-outline.js';

type Method = () => void;
type RuleResult = NonNullable<ReturnType<LangiumParser['getRule']>>;

interface Context {
    readonly parser: LangiumParser;
    readonly tokens: Record<string, TokenType>;
    consume: number;
    optional: number;
    subrule: number;
    many: number;
    or: number;
}

/** The arguments every rule is called with: the grammar has no parameters, so no rule reads them. */
const NO_ARGS: Record<string, boolean> = Object.freeze({}) as Record<string, boolean>;

/** Langium's `createLangiumParser` with Umpire's parser, its rules built here when the grammar allows (see above). */
export function createBattleParser(services: LangiumCoreServices): LangiumParser {
    const grammar = services.Grammar;
    const parser = new BattleParser(services) as unknown as LangiumParser;
    const tokens = services.parser.Lexer.definition as Record<string, TokenType>;
    if (!buildsHere(grammar)) {
        createParser(grammar, parser, tokens);
        parser.finalize();
        return parser;
    }
    for (const rule of reachableParserRules(grammar)) {
        const ctx: Context = { parser, tokens, consume: 1, optional: 1, subrule: 1, many: 1, or: 1 };
        parser.rule(rule, buildElement(ctx, rule.definition));
    }
    parser.finalize();
    return parser;
}

/**
 * Whether no element of the grammar reads rule arguments or needs Langium's other builders. By `$type` (none of
 * these types has a subtype): the reflection's `isX` ran in V8's interpreter for every element at every start.
 */
function buildsHere(grammar: GrammarAST.Grammar): boolean {
    for (const rule of grammar.rules) {
        if (rule.$type === 'InfixRule') return false;
        if (rule.$type !== 'ParserRule') continue;
        if ((rule as GrammarAST.ParserRule).parameters.length > 0) return false;
        const elements: GrammarAST.AbstractElement[] = [(rule as GrammarAST.ParserRule).definition];
        while (elements.length > 0) {
            const element = elements.pop()!;
            switch (element.$type) {
                case 'UnorderedGroup': return false;
                case 'Group':
                    if ((element as GrammarAST.Group).guardCondition) return false;
                    elements.push(...(element as GrammarAST.Group).elements);
                    break;
                case 'Alternatives': elements.push(...(element as GrammarAST.Alternatives).elements); break;
                case 'RuleCall': if ((element as GrammarAST.RuleCall).arguments.length > 0) return false; break;
                case 'Assignment': elements.push((element as GrammarAST.Assignment).terminal); break;
                case 'CrossReference': {
                    const terminal = (element as GrammarAST.CrossReference).terminal;
                    if (terminal) elements.push(terminal);
                }
            }
        }
    }
    return true;
}

function buildElement(ctx: Context, element: GrammarAST.AbstractElement): Method {
    let method: Method;
    if (GrammarAST.isKeyword(element)) method = buildKeyword(ctx, element);
    else if (GrammarAST.isAction(element)) {
        const type = GrammarUtils.getTypeName(element);
        method = () => ctx.parser.action(type, element);
    } else if (GrammarAST.isAssignment(element)) method = buildElement(ctx, element.terminal);
    else if (GrammarAST.isCrossReference(element)) method = buildCrossReference(ctx, element);
    else if (GrammarAST.isRuleCall(element)) method = buildRuleCall(ctx, element);
    else if (GrammarAST.isAlternatives(element)) method = buildAlternatives(ctx, element);
    else if (GrammarAST.isGroup(element)) method = buildGroup(ctx, element);
    else if (GrammarAST.isEndOfFile(element)) {
        const idx = ctx.consume++;
        method = () => ctx.parser.consume(idx, EOF, element);
    } else throw new Error(`Unexpected element type: ${element.$type}`);
    return wrap(ctx, method, element.cardinality);
}

function buildKeyword(ctx: Context, keyword: GrammarAST.Keyword): Method {
    const idx = ctx.consume++;
    const token = ctx.tokens[keyword.value];
    if (!token) throw new Error('Could not find token for keyword: ' + keyword.value);
    return () => ctx.parser.consume(idx, token, keyword);
}

function buildRuleCall(ctx: Context, ruleCall: GrammarAST.RuleCall): Method {
    const rule = ruleCall.rule.ref;
    if (GrammarAST.isParserRule(rule)) {
        const idx = ctx.subrule++;
        const fragment = rule.fragment;
        let subrule: RuleResult | undefined;
        return () => ctx.parser.subrule(idx, subrule ??= getRule(ctx, rule), fragment, ruleCall, NO_ARGS);
    }
    if (GrammarAST.isTerminalRule(rule)) {
        const idx = ctx.consume++;
        const token = getToken(ctx, rule.name);
        return () => ctx.parser.consume(idx, token, ruleCall);
    }
    throw new Error(`Undefined rule: ${ruleCall.rule.$refText}`);
}

function buildCrossReference(ctx: Context, crossRef: GrammarAST.CrossReference, terminal = crossRef.terminal): Method {
    if (!terminal) {
        if (!crossRef.type.ref) throw new Error('Could not resolve reference to type: ' + crossRef.type.$refText);
        const assignTerminal = GrammarUtils.findNameAssignment(crossRef.type.ref)?.terminal;
        if (!assignTerminal) throw new Error('Could not find name assignment for type: ' + GrammarUtils.getTypeName(crossRef.type.ref));
        return buildCrossReference(ctx, crossRef, assignTerminal);
    }
    if (GrammarAST.isRuleCall(terminal) && GrammarAST.isParserRule(terminal.rule.ref)) {
        const rule = terminal.rule.ref;
        const idx = ctx.subrule++;
        let subrule: RuleResult | undefined;
        return () => ctx.parser.subrule(idx, subrule ??= getRule(ctx, rule), false, crossRef, NO_ARGS);
    }
    if (GrammarAST.isRuleCall(terminal) && GrammarAST.isTerminalRule(terminal.rule.ref)) {
        const idx = ctx.consume++;
        const token = getToken(ctx, terminal.rule.ref.name);
        return () => ctx.parser.consume(idx, token, crossRef);
    }
    if (GrammarAST.isKeyword(terminal)) {
        const idx = ctx.consume++;
        const token = getToken(ctx, terminal.value);
        return () => ctx.parser.consume(idx, token, crossRef);
    }
    throw new Error('Could not build cross reference parser');
}

function buildAlternatives(ctx: Context, alternatives: GrammarAST.Alternatives): Method {
    if (alternatives.elements.length === 1) return buildElement(ctx, alternatives.elements[0]);
    // Made once: Chevrotain only reads the array and calls the chosen `ALT`.
    const choices: Array<IOrAlt<unknown>> = alternatives.elements.map(element => ({ ALT: buildElement(ctx, element) }));
    const idx = ctx.or++;
    return () => ctx.parser.alternatives(idx, choices);
}

function buildGroup(ctx: Context, group: GrammarAST.Group): Method {
    const methods = group.elements.map(element => buildElement(ctx, element));
    return () => {
        for (let k = 0; k < methods.length; k++) methods[k]();
    };
}

function wrap(ctx: Context, method: Method, cardinality: GrammarAST.AbstractElement['cardinality']): Method {
    if (!cardinality) return method;
    // The same `{ DEF }` object at every call, as the alternatives above (Langium adds `GATE: undefined` for `*` and `?`).
    if (cardinality === '*') {
        const idx = ctx.many++;
        const options = { DEF: method, GATE: undefined };
        return () => ctx.parser.many(idx, options);
    }
    if (cardinality === '+') {
        const idx = ctx.many++;
        const options = { DEF: method };
        return () => ctx.parser.atLeastOne(idx, options);
    }
    const idx = ctx.optional++;
    const options = { DEF: method, GATE: undefined };
    return () => ctx.parser.optional(idx, options);
}

function getRule(ctx: Context, rule: GrammarAST.ParserRule): RuleResult {
    const found = ctx.parser.getRule(rule.name);
    if (!found) throw new Error(`Rule "${rule.name}" not found."`);
    return found;
}

function getToken(ctx: Context, name: string): TokenType {
    const token = ctx.tokens[name];
    if (!token) throw new Error(`Token "${name}" not found."`);
    return token;
}
