/**
 * The parsers, Umpire's subclasses of Langium 4.4.0's `LangiumParser` and `LangiumCompletionParser`
 * (parser/langium-parser.ts), made by battle-parser-builder.ts and wired in battle-module.ts. Each builds its tree
 * with BattleCstNodeBuilder (battle-cst-builder.ts), recovers from syntax errors with the kept answers of
 * parse-recovery-costs.ts, and:
 *
 * 1. Keeps no tokens once done. Chevrotain keeps the token vector it was given until the next parse, with
 * everything the parse left on its stacks: at 50,000 lines 64 MB of a 168 MB heap, which every garbage collection
 * of the check then marks again, and which the language server kept for as long as the file stayed unedited. The
 * parse gives the parser empty input once done; its result (tree, errors) does not point into the parser. The
 * completion parser (which reads the text up to the cursor: half the file for a completion in its middle) keeps its
 * tokens twice, in the recogniser and in a field, both released the same way; its result has its own list.
 * (docs/upstream-reports.md, "The parser keeps its last input".)
 *
 * 2. Captures no stack traces while parsing: the recovery throws and catches an `Error` at every mismatched token,
 * and each captured a stack of the parser's deep recursion that nothing reads.
 *
 * 3. Links the AST to its containers without an array per property. After the parse Langium links every AST node
 * to its container with `linkContentToContainer`, `Object.entries` and a closure per array (0.3 s of a 2.2 s parse at
 * 50,000 lines): the walk here reads the same properties in the same order with `for…in` and sets the same
 * `$container`, `$containerProperty` and `$containerIndex`. (docs/upstream-reports.md.)
 *
 * 4. Gives no new array per token for the comments before it. Before each token, Langium's parser takes the
 * comments before it out of the lexer's list with `splice`, a new (empty) array for each of the 150,000 tokens of a
 * 50,000-line file that has no comment before it. Here the list is read first and one shared empty array returned
 * (docs/performance.md, "The parser's costs per node").
 *
 * 5. Completes each AST node with its type's mandatory properties listed once. `assignMandatoryProperties` gives
 * each new node its missing lists and flags by reading the type's properties with `Object.values`, an array per
 * node; and each list the parse filled (`+=`, 30,000 at 50,000 lines) keeps the 17 places V8 gives an empty
 * array at its first append: copied here into an array of its length (test/language/parser-fixes.test.ts: the heap
 * a parsed tree keeps, and the very tree Langium's parser gives).
 *
 * What this relies on of Langium 4.4.0 (checked at start-up, langium-version.ts): the parser's fields and methods
 * named in `ParserInternals` below, whose bodies `parse` and `construct` copy but for the steps above.
 */
import {
    createParser, DatatypeSymbol, LangiumCompletionParser, LangiumParser,
    type AstNode, type AstReflection, type CompletionParserResult, type CstNode, type CstNodeBuilder, type LangiumCoreServices, type Lexer, type LexerResult, type ParseResult, type ParserOptions
} from 'langium';
import type { IToken, TokenTypeDictionary } from 'chevrotain';
import { KnownLookahead, type BuiltLookaheadServices } from './known-lookahead.js';
import { BattleCstNodeBuilder } from './battle-cst-builder.js';
import { withKeptRecovery, type Recognizer, type RecognizerClass } from './parse-recovery-costs.js';
import { withRecordingUndoneInPlace } from './parser-recording.js';

/** The recogniser's fields the parsers read (Langium's `ChevrotainWrapper`, not exported). */
type Wrapper = Recognizer & { input: IToken[], errors: ParseResult['parserErrors'], lookaheadStrategy: KnownLookahead };

/** The members of Langium's parser that its subclass here reads or overrides (private or protected in Langium's typings). */
interface ParserInternals {
    nodeBuilder: CstNodeBuilder;
    wrapper: Wrapper;
    lexer: Lexer;
    lexerResult: LexerResult | undefined;
    stack: Array<{ $type: string | symbol, $infixName?: string, value?: unknown, $cstNode: CstNode }>;
    converter: { convert(value: unknown, node: CstNode | undefined): unknown };
    astReflection: AstReflection;
    operatorPrecedence: Map<string, unknown>;
    allRules: Map<string, unknown>;
    mainRule: unknown;
    doParse(rule: unknown): AstNode;
    constructInfix(obj: object, precedence: unknown): unknown;
    extractHiddenTokens(token: IToken): IToken[];
    construct(): unknown;
    parse<T extends AstNode = AstNode>(input: string, options?: ParserOptions): ParseResult<T>;
}

/** The members of Langium's completion parser that its subclass here releases. */
interface CompletionInternals {
    wrapper: Wrapper;
    tokens: IToken[];
    parse(input: string): CompletionParserResult;
}

/** A class's public members but `parse` (which the internals declare as a method, so that a subclass may override it). */
type Public<T> = { [K in Exclude<keyof T, 'parse'>]: T[K] };
const LangiumParserWithInternals = LangiumParser as unknown as new (services: LangiumCoreServices) => Public<LangiumParser> & ParserInternals;
const CompletionParserWithInternals = LangiumCompletionParser as unknown as new (services: LangiumCoreServices) => Public<LangiumCompletionParser> & CompletionInternals;

/** Returned for every token with no comment before it: never written to (`addHiddenNodes` returns at once for an empty list). */
const NO_TOKENS: IToken[] = Object.freeze([]) as unknown as IToken[];

/**
 * A recogniser like the one Langium's constructor made (`ChevrotainWrapper`, the same configuration), with the
 * recovery's answers kept and the lookahead decisions the build recorded (known-lookahead.ts); made before any
 * rule is defined on it.
 */
function keptRecoveryWrapper(made: Wrapper, services: LangiumCoreServices, lexer: Lexer, incomplete: boolean): Wrapper {
    const Kept = withKeptRecovery(withRecordingUndoneInPlace(made.constructor as RecognizerClass));
    const skipValidations = services.LanguageMetaData.mode === 'production';
    // Langium's strategy, with its options (ChevrotainWrapper): warnings unlogged when validations are skipped.
    const lookaheadStrategy = new KnownLookahead({ logging: skipValidations ? () => { } : undefined, incomplete },
        (services as LangiumCoreServices & BuiltLookaheadServices).parser.BuiltLookahead, lexer.definition as TokenTypeDictionary);
    return new Kept(lexer.definition, {
        ...services.parser.ParserConfig,
        lookaheadStrategy,
        skipValidations,
        errorMessageProvider: services.parser.ParserErrorMessageProvider
    }, incomplete) as Wrapper;
}

/** The lookahead strategy of a parser made here: the build's analysis reads what it decided. */
export function lookaheadOf(parser: LangiumParser | LangiumCompletionParser): KnownLookahead {
    return (parser as unknown as { wrapper: Wrapper }).wrapper.lookaheadStrategy;
}

export class BattleParser extends LangiumParserWithInternals {
    constructor(services: LangiumCoreServices) {
        super(services);
        this.nodeBuilder = new BattleCstNodeBuilder();
        this.wrapper = keptRecoveryWrapper(this.wrapper, services, this.lexer, false);
    }

    // Langium's `parse`, with the walk to containers above; then the tokens are released.
    override parse<T extends AstNode = AstNode>(input: string, options: ParserOptions = {}): ParseResult<T> {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 0;
        try {
            this.nodeBuilder.buildRootNode(input);
            const lexerResult = this.lexerResult = this.lexer.tokenize(input);
            this.wrapper.input = lexerResult.tokens;
            const ruleMethod = options.rule ? this.allRules.get(options.rule) : this.mainRule;
            if (!ruleMethod) {
                throw new Error(options.rule ? `No rule found with name '${options.rule}'` : 'No main rule available.');
            }
            const result = this.doParse(ruleMethod);
            this.nodeBuilder.addHiddenNodes(lexerResult.hidden);
            this.unorderedGroups.clear();
            this.lexerResult = undefined;
            linkToContainers(result);
            return {
                value: result as T,
                lexerErrors: lexerResult.errors,
                lexerReport: lexerResult.report,
                parserErrors: this.wrapper.errors
            };
        } finally {
            // Setting the input resets the recogniser (new error list, empty stacks): the result keeps its own.
            this.wrapper.input = [];
            Error.stackTraceLimit = limit;
        }
    }

    // Langium's `construct`, its last step `completeNode`.
    override construct(): unknown {
        if (this.isRecording()) return undefined;
        const obj = this.stack.pop()!;
        this.nodeBuilder.construct(obj);
        if ('$infixName' in obj) return this.constructInfix(obj, this.operatorPrecedence.get(obj.$infixName!));
        if (obj.$type === DatatypeSymbol) return this.converter.convert(obj.value, obj.$cstNode);
        completeNode(this.astReflection, obj as { $type: string });
        return obj;
    }

    override extractHiddenTokens(token: IToken): IToken[] {
        const hidden = this.lexerResult?.hidden;
        if (!hidden || hidden.length === 0 || hidden[0].startOffset > token.startOffset) return NO_TOKENS;
        return super.extractHiddenTokens(token);
    }
}

class BattleCompletionParser extends CompletionParserWithInternals {
    /** The grammar's rules and their lookahead, made at the first completion (the server's start does not wait for them). */
    private rulesMade = false;

    constructor(private readonly services: LangiumCoreServices) {
        super(services);
        // The completion parser reads text cut short at the cursor (Langium's `incomplete`).
        this.wrapper = keptRecoveryWrapper(this.wrapper, services, services.parser.Lexer, true);
    }

    override parse(input: string): CompletionParserResult {
        if (!this.rulesMade) {
            createParser(this.services.Grammar, this as unknown as LangiumCompletionParser, this.services.parser.Lexer.definition);
            this.finalize();
            this.rulesMade = true;
        }
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 0;
        try {
            return super.parse(input);
        } finally {
            this.wrapper.input = [];
            this.tokens = [];
            Error.stackTraceLimit = limit;
        }
    }
}

/** Langium's `createCompletionParser`, with the parser above (its rules made at its first parse). */
export function createBattleCompletionParser(services: LangiumCoreServices): LangiumCompletionParser {
    return new BattleCompletionParser(services) as unknown as LangiumCompletionParser;
}

/** Langium's `linkContentToContainer(node, { deep: true })` (utils/ast-utils), without an entry array per property. */
function linkToContainers(node: AstNode): void {
    const record = node as unknown as Record<string, unknown>;
    for (const name in record) {
        if (name.charCodeAt(0) === 36 /* $ */ || !Object.prototype.hasOwnProperty.call(record, name)) continue;
        const value = record[name];
        if (Array.isArray(value)) {
            for (let index = 0; index < value.length; index++) {
                const item = value[index] as unknown;
                if (isAstNode(item)) {
                    const child = item as { $container: AstNode, $containerProperty: string, $containerIndex: number };
                    child.$container = node;
                    child.$containerProperty = name;
                    child.$containerIndex = index;
                    linkToContainers(item);
                }
            }
        } else if (isAstNode(value)) {
            const child = value as { $container: AstNode, $containerProperty: string };
            child.$container = node;
            child.$containerProperty = name;
            linkToContainers(value);
        }
    }
}

function isAstNode(value: unknown): value is AstNode {
    return typeof value === 'object' && value !== null && typeof (value as { $type?: unknown }).$type === 'string';
}

/** A type's properties that every node of it has (`defaultValue`: an empty list, `false`), in Langium's order. */
const mandatoryOf = new WeakMap<object, ReadonlyArray<{ name: string, defaultValue: unknown }>>();

function mandatoryProperties(reflection: AstReflection, type: string): ReadonlyArray<{ name: string, defaultValue: unknown }> {
    const meta = reflection.getTypeMetaData(type);
    let found = mandatoryOf.get(meta);
    if (found === undefined) {
        found = Object.values(meta.properties).filter(p => p.defaultValue !== undefined).map(p => ({ name: p.name, defaultValue: p.defaultValue }));
        mandatoryOf.set(meta, found);
    }
    return found;
}

/** Langium's `copyDefaultValue` (utils/ast-utils): a list is a new list of copies. */
function copyDefault(value: unknown): unknown {
    return Array.isArray(value) ? value.map(copyDefault) : value;
}

/**
 * Langium's `assignMandatoryProperties` (utils/ast-utils), with the type's mandatory properties listed once,
 * and each list the parse filled (`+=`) copied to one of its length.
 */
function completeNode(reflection: AstReflection, node: { $type: string }): void {
    const fields = node as unknown as Record<string, unknown>;
    for (const { name, defaultValue } of mandatoryProperties(reflection, node.$type)) {
        const value = fields[name];
        if (value === undefined) fields[name] = copyDefault(defaultValue);
        else if (Array.isArray(value) && value.length > 0 && value.constructor === Array) fields[name] = value.slice();
    }
}
