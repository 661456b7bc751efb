public import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 that tests start to talk to real clients over real sockets.
///
/// It listens on a port the system picks, hands every request to a handler, and writes the
/// handler's answer: a status, headers and body chunks (each after an optional delay), or a
/// connection that hangs until the client or ``stop()`` ends it, or one closed without a reply.
/// Every request is recorded for the test to inspect. Each connection is served on its own
/// thread and closed after one exchange (`Connection: close`).
public final class LoopbackHTTPServer: Sendable {
  /// One request as the server received it.
  public struct Request: Sendable, Equatable {
    /// The method, such as `POST`.
    public var method: String
    /// The request target, such as `/v1/chat/completions`.
    public var path: String
    /// The header fields in the order they came, names as sent.
    public var headers: [Header]
    /// The body (as long as `Content-Length` said).
    public var body: Data

    /// The first value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The head and body as sent on the wire, for tests that look for a string anywhere.
    public var rawText: String {
      "\(method) \(path)\n" + headers.map { "\($0.name): \($0.value)\n" }.joined() + bodyText
    }
  }

  /// One header field.
  public struct Header: Sendable, Equatable {
    /// The field name, such as `Content-Type`.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// A piece of a response body, written after waiting `delay`.
  public struct Chunk: Sendable {
    /// The bytes to write.
    public var data: Data
    /// How long to wait before writing them.
    public var delay: Duration

    /// Creates a chunk from bytes.
    public init(_ data: Data, after delay: Duration = .zero) {
      self.data = data
      self.delay = delay
    }

    /// Creates a chunk from UTF-8 text.
    public init(_ text: String, after delay: Duration = .zero) {
      self.init(Data(text.utf8), after: delay)
    }
  }

  /// What the server does with one request.
  public enum Response: Sendable {
    /// Writes a status line, headers and body chunks, then closes.
    ///
    /// `Content-Length` (the chunks' total) and `Connection: close` are added unless the
    /// headers already name them.
    case reply(status: Int, headers: [Header], chunks: [Chunk])
    /// Reads the request and never answers; the connection stays open until the client closes
    /// it or the server stops.
    case hang
    /// Closes the connection without writing anything.
    case close

    /// A complete reply with one body.
    public static func text(
      _ body: String, status: Int = 200, contentType: String = "application/json",
      headers: [Header] = []
    ) -> Response {
      .reply(
        status: status, headers: [Header("Content-Type", contentType)] + headers,
        chunks: [Chunk(body)])
    }
  }

  /// Decides the response to a request; called on the connection's thread.
  public typealias Handler = @Sendable (Request) -> Response

  private struct State {
    var isStopped = false
    var requests: [Request] = []
    var connections: Set<Int32> = []
    var connectionCount = 0
  }

  /// Longest request head or body read; a larger request is answered 413 and closed.
  public static let maximumRequestSize = 16 * 1024 * 1024

  /// The port the server listens on.
  public let port: UInt16
  private let listener: Int32
  private let handler: Handler
  // All mutable state sits behind the mutex, which makes the class safe to share across threads.
  private let state = Mutex(State())

  /// Starts a server on 127.0.0.1 at a free port.
  ///
  /// - Throws: `POSIXError` when no socket can be opened.
  public init(handler: @escaping Handler) throws {
    let fd = try Self.boundSocket()
    guard listen(fd, 64) == 0 else {
      let code = errno
      _ = Self.closeSocket(fd)
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
    guard let boundPort = Self.localPort(of: fd) else {
      _ = Self.closeSocket(fd)
      throw POSIXError(.EIO)
    }
    listener = fd
    port = boundPort
    self.handler = handler
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "loopback-http-accept"
    thread.start()
  }

  /// The server's root, such as `http://127.0.0.1:54321`.
  public var baseURL: URL {
    URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
  }

  /// Every request received so far, in arrival order.
  public var requests: [Request] { state.withLock { $0.requests } }

  /// How many connections the server has accepted.
  public var connectionCount: Int { state.withLock { $0.connectionCount } }

  /// Stops listening and ends every open connection, hanging ones included; call it when done.
  ///
  /// The server's threads keep it alive until then. Calling it again does nothing.
  public func stop() {
    let open = state.withLock { state -> Set<Int32>? in
      guard !state.isStopped else { return nil }
      state.isStopped = true
      return state.connections
    }
    guard let open else { return }
    for fd in open { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    _ = shutdown(listener, Int32(SHUT_RDWR))
  }

  /// A port on 127.0.0.1 that nothing listens on, for "connection refused" cases.
  ///
  /// Its socket stays bound, never listening, until the process ends: a closed one would free the
  /// port for the next server another test starts, which then answers the "refused" case.
  public static func unusedPort() throws -> UInt16 {
    let fd = try boundSocket()
    guard let port = localPort(of: fd) else {
      _ = closeSocket(fd)
      throw POSIXError(.EIO)
    }
    return port
  }

  private var isStopped: Bool { state.withLock { $0.isStopped } }

  private func acceptLoop() {
    defer { _ = Self.closeSocket(listener) }
    while !isStopped {
      var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 50)
      if ready <= 0 { continue }
      let client = accept(listener, nil, nil)
      guard client >= 0 else { continue }
      let accepted = state.withLock { state -> Bool in
        guard !state.isStopped else { return false }
        state.connections.insert(client)
        state.connectionCount += 1
        return true
      }
      guard accepted else {
        _ = Self.closeSocket(client)
        return
      }
      let thread = Thread { [self] in serve(client) }
      thread.name = "loopback-http-connection"
      thread.start()
    }
  }

  private func serve(_ fd: Int32) {
    defer {
      state.withLock { _ = $0.connections.remove(fd) }
      _ = Self.closeSocket(fd)
    }
    Self.disableSigpipe(fd)
    guard let request = readRequest(fd) else {
      write(
        fd,
        Data(
          "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
      return
    }
    state.withLock { $0.requests.append(request) }
    switch handler(request) {
    case .close:
      return
    case .hang:
      waitUntilPeerClosesOrStop(fd)
    case .reply(let status, let headers, let chunks):
      var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
      let names = Set(headers.map { $0.name.lowercased() })
      for header in headers { head += "\(header.name): \(header.value)\r\n" }
      if !names.contains("content-length"), !names.contains("transfer-encoding") {
        head += "Content-Length: \(chunks.reduce(0) { $0 + $1.data.count })\r\n"
      }
      if !names.contains("connection") { head += "Connection: close\r\n" }
      head += "\r\n"
      guard write(fd, Data(head.utf8)) else { return }
      for chunk in chunks {
        if chunk.delay > .zero {
          guard sleep(chunk.delay, unlessPeerCloses: fd) else { return }
        }
        guard write(fd, chunk.data) else { return }
      }
      _ = shutdown(fd, Int32(SHUT_WR))
      // Let the client read everything before the socket closes under it.
      drain(fd)
    }
  }

  /// Reads one request head and its body; nil when it is too large or the peer went away.
  private func readRequest(_ fd: Int32) -> Request? {
    var buffer = Data()
    let separator = Data("\r\n\r\n".utf8)
    var headEnd: Range<Data.Index>?
    while headEnd == nil {
      guard buffer.count <= Self.maximumRequestSize, let more = readSome(fd) else { return nil }
      buffer.append(more)
      headEnd = buffer.range(of: separator)
    }
    guard let headEnd else { return nil }
    let headText = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
    var lines = headText.components(separatedBy: "\r\n")
    let requestLine = lines.isEmpty ? "" : lines.removeFirst()
    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
    var headers: [Header] = []
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append(
        Header(
          String(line[..<colon]),
          line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    var request = Request(
      method: parts.first.map(String.init) ?? "",
      path: parts.count > 1 ? String(parts[1]) : "", headers: headers, body: Data())
    let length = request.header("Content-Length").flatMap { Int($0) } ?? 0
    guard length >= 0, length <= Self.maximumRequestSize else { return nil }
    var body = Data(buffer[headEnd.upperBound...])
    while body.count < length {
      guard let more = readSome(fd) else { break }
      body.append(more)
    }
    request.body = body.prefix(length)
    return request
  }

  /// The next bytes from the peer, waiting for them; nil at end of stream, on error or on stop.
  private func readSome(_ fd: Int32) -> Data? {
    while !isStopped {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 50)
      if ready == 0 { continue }
      if ready < 0 { return nil }
      var bytes = [UInt8](repeating: 0, count: 64 * 1024)
      let count = recv(fd, &bytes, bytes.count, 0)
      guard count > 0 else { return nil }
      return Data(bytes[0..<count])
    }
    return nil
  }

  private func waitUntilPeerClosesOrStop(_ fd: Int32) {
    while readSome(fd) != nil {}
  }

  private func drain(_ fd: Int32) {
    var rounds = 0
    while rounds < 40, !isStopped {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 50)
      rounds += 1
      if ready == 0 { continue }
      var bytes = [UInt8](repeating: 0, count: 4096)
      if ready < 0 || recv(fd, &bytes, bytes.count, 0) <= 0 { return }
    }
  }

  /// Waits `delay`; false when the peer closed or the server stopped meanwhile.
  private func sleep(_ delay: Duration, unlessPeerCloses fd: Int32) -> Bool {
    let deadline = ContinuousClock.now + delay
    while ContinuousClock.now < deadline {
      if isStopped { return false }
      let left = ContinuousClock.now.duration(to: deadline) / .milliseconds(1)
      let milliseconds = Int32(max(1, min(50, left)))
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      if poll(&poller, 1, milliseconds) > 0 {
        var byte: UInt8 = 0
        if recv(fd, &byte, 1, Int32(MSG_PEEK)) <= 0 { return false }
        // The client sent more than its request; ignore it and keep waiting.
        Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
      }
    }
    return true
  }

  @discardableResult
  private func write(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return true }
      var sent = 0
      while sent < raw.count {
        let count = send(fd, base + sent, raw.count - sent, Self.sendFlags)
        guard count > 0 else { return false }
        sent += count
      }
      return true
    }
  }

  private static func boundSocket() throws -> Int32 {
    #if os(Linux)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var yes: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      _ = closeSocket(fd)
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
    return fd
  }

  private static func localPort(of fd: Int32) -> UInt16? {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { return nil }
    return UInt16(bigEndian: address.sin_port)
  }

  private static func closeSocket(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(fd)
    #elseif canImport(Musl)
      Musl.close(fd)
    #else
      Darwin.close(fd)
    #endif
  }

  private static func disableSigpipe(_ fd: Int32) {
    #if canImport(Darwin)
      var yes: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  #if os(Linux)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    private static let sendFlags: Int32 = 0
  #endif

  private static func reason(for status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 413: "Payload Too Large"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
