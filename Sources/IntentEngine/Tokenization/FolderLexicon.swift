/// The words of one grammar folder on their own, which segment text as if no other folder were
/// loaded.
///
/// Folders are written apart: a built-in list that holds "开灯" as one word would otherwise hide
/// a user grammar's keyword "灯", since longest match over every folder's words makes "开灯" one
/// token. The engine also finds each folder's keywords at the boundaries its own words define.
struct FolderLexicon: Sendable {
  /// The folder as the user gave it (`Grammars` for the built-ins), for explanations and tests.
  var folder: String
  /// The folder's words and the gazetteer's, with local entry indexes.
  var lexicon = Lexicon()
  /// Local entry → the grammar's entry that carries this folder's keywords and excludes of the
  /// word, or -1 when the folder gives the word none.
  var entries: [Int32] = []
}
