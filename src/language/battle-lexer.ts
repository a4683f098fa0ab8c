/**
 * The lexer, Umpire's own (Langium 4.4.0's `DefaultLexer` makes its Chevrotain lexer in its constructor, with no
 * way to give it another): the same Chevrotain lexer with the same options, whose tokens are made by a class of
 * their own, each token then becoming its own leaf of the parse tree.
 *
 * Six boxed numbers per token. Chevrotain's `createFullToken` (13.2.0, scan/lexer_public.js) makes each token an
 * object literal of the shape of its end-of-file token, which it makes at load time with `NaN` positions: V8 then
 * keeps the six positions of every token of that shape as separate heap numbers (16 bytes each, 900,000 of them
 * at 50,000 lines), all alive until the parse ends (docs/performance.md, "The parser's costs per node"). A
 * `LexedLeaf` has the same fields in the same order with the same values, whole-number positions that V8 keeps
 * in the object.
 *
 * A token and its leaf, two objects. The lexer makes every token before the parse starts and all live until it
 * ends, so each young-generation collection during the parse copied them, beside the leaf the parse made of each.
 * Here the token is a leaf (BattleLeaf) with the token's fields; the node builder (battle-cst-builder.ts) sets its
 * place and puts it in the tree (docs/performance.md, "The parser's costs per node").
 */
import type { GrammarAST, LangiumCoreServices, Lexer, LexerResult, TokenBuilder, TokenizeOptions } from 'langium';
import { Lexer as ChevrotainLexer, type IToken, type TokenType, type TokenTypeDictionary, type TokenVocabulary } from 'chevrotain';
import { BattleLeaf } from './battle-cst.js';

/**
 * From this length on V8 makes a substring a slice that keeps the string it was cut from alive whole.
 * A token's text is cut from the text it was lexed from, and a leaf keeps it as long as the tree does:
 * a piece parsed after an edit is itself cut from that edit's whole text, so one long comment, name or
 * string in it kept the file's whole text of that edit alive, a file's text per edit.
 */
const SLICED = 13;

/** A copy of `text` that keeps nothing else alive: the concatenation is flattened into a string of its own before it is cut. */
function ownCopy(text: string): string {
    return (' ' + text).slice(1);
}

/** A token as Chevrotain's `createFullToken` makes it, that is also a leaf (placed when the parse puts it in the tree). */
export class LexedLeaf extends BattleLeaf implements IToken {
    image: string;
    startOffset: number;
    endOffset: number;
    startLine: number;
    endLine: number;
    startColumn: number;
    endColumn: number;
    tokenTypeIdx: number;

    constructor(image: string, startOffset: number, tokenTypeIdx: number, tokenType: TokenType, startLine: number, startColumn: number, imageLength: number) {
        super(startOffset, imageLength, 0, 0, 0, 0, tokenType, false, undefined);
        this.image = image.length < SLICED ? image : ownCopy(image);
        this.startOffset = startOffset;
        this.endOffset = startOffset + imageLength - 1;
        this.startLine = startLine;
        this.endLine = startLine;
        this.startColumn = startColumn;
        this.endColumn = startColumn + imageLength - 1;
        this.tokenTypeIdx = tokenTypeIdx;
    }
}

/** Chevrotain's lexer, its tokens `LexedLeaf`s (it picks `createFullToken` for full position tracking when made). */
class LeafLexer extends ChevrotainLexer {
    createFullToken(image: string, startOffset: number, tokenTypeIdx: number, tokenType: TokenType, startLine: number, startColumn: number, imageLength: number): IToken {
        return new LexedLeaf(image, startOffset, tokenTypeIdx, tokenType, startLine, startColumn, imageLength);
    }
}

/** Langium 4.4.0's `DefaultLexer`, with the lexer above. */
export class BattleLexer implements Lexer {
    private readonly tokenBuilder: TokenBuilder;
    private readonly tokenTypes: TokenTypeDictionary;
    private readonly chevrotainLexer: ChevrotainLexer;

    constructor(services: LangiumCoreServices) {
        this.tokenBuilder = services.parser.TokenBuilder;
        const tokens = this.tokenBuilder.buildTokens(services.Grammar as GrammarAST.Grammar, { caseInsensitive: services.LanguageMetaData.caseInsensitive });
        if (!Array.isArray(tokens)) throw new Error('The battle grammar\'s tokens are one list (one lexer mode).');
        this.tokenTypes = dictionaryOf(tokens);
        this.chevrotainLexer = new LeafLexer(tokens, {
            positionTracking: 'full',
            skipValidations: services.LanguageMetaData.mode === 'production',
            errorMessageProvider: services.parser.LexerErrorMessageProvider
        });
    }

    get definition(): TokenTypeDictionary {
        return this.tokenTypes;
    }

    tokenize(text: string, _options?: TokenizeOptions): LexerResult {
        const result = this.chevrotainLexer.tokenize(text);
        return {
            tokens: result.tokens,
            errors: result.errors,
            hidden: result.groups.hidden ?? [],
            report: this.tokenBuilder.flushLexingReport?.(text)
        };
    }
}

function dictionaryOf(tokens: TokenVocabulary & TokenType[]): TokenTypeDictionary {
    const dictionary: TokenTypeDictionary = {};
    for (const token of tokens) dictionary[token.name] = token;
    return dictionary;
}
