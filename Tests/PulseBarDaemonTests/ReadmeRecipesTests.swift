import Glibc
import Testing

/// The README stays short and points at docs/RECIPES.md; the recipe doc shows the shipped
/// `now-playing.conf` as it is and only screenshots that exist.
@Suite struct ReadmeRecipesTests {
  static func read(_ path: String) throws -> String {
    try readTextFile(PackageRoot.path + "/" + path)
  }

  @Test func readmeIsAtMost300LinesAndLinksTheRecipes() throws {
    let readme = try Self.read("README.md")
    #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1 <= 300)
    #expect(readme.contains("(docs/RECIPES.md)"))
  }

  /// The doc's first `ini` block is `now-playing.conf` without its comments.
  @Test func theRecipeDocShowsTheShippedConfig() throws {
    let doc = try Self.read("docs/RECIPES.md")
    let shipped = try Self.read("config/examples/now-playing.conf")
      .split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("#") }
    let start = try #require(doc.firstRange(of: "```ini\n"))
    let end = try #require(doc[start.upperBound...].firstRange(of: "```"))
    let shown = doc[start.upperBound..<end.lowerBound].split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(shown == shipped)
  }

  @Test func theRecipeDocsScreenshotsExist() throws {
    let doc = try Self.read("docs/RECIPES.md")
    var names: [Substring] = []
    var rest = doc[...]
    while let range = rest.firstRange(of: "](screenshots/") {
      let tail = rest[range.upperBound...]
      names.append(tail.prefix { $0 != ")" })
      rest = tail
    }
    #expect(names.count >= 2)
    for name in names {
      #expect(access(PackageRoot.path + "/docs/screenshots/" + name, R_OK) == 0, "\(name)")
    }
  }
}
