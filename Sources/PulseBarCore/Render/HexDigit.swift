/// The value of a hexadecimal digit (in the numeric entities ``MarkupStripper`` reads and the
/// `\u` escapes ``JSONUnescaper`` reads).
func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
  switch scalar.value {
  case 0x30...0x39: scalar.value - 0x30
  case 0x41...0x46: scalar.value - 0x37
  case 0x61...0x66: scalar.value - 0x57
  default: nil
  }
}
