/// A bad template: what is wrong and the column (1-based, in characters of the value).
package struct TemplateError: Error, Equatable {
  package var column: Int
  package var message: String
}
