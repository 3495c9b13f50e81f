/// An audio file that cannot be read, with libsndfile's explanation.
package struct AudioFileError: Error, Equatable, CustomStringConvertible {
  package var path: String
  package var message: String
  package var description: String { "\(path): \(message)" }
}
