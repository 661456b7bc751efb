import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP exchange over `URLSession`, driven through a data delegate.
///
/// The delegate sees the body as it arrives, which is how server-sent events are read on Linux
/// (FoundationNetworking has no `bytes(for:)`); it bounds the body's size and cancels the task
/// when the calling task is cancelled.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// What the server answered.
  struct Response: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
  }

  /// Called with each body piece of a successful (2xx) response; throwing ends the transfer.
  typealias BodyObserver = @Sendable (Data) throws(CloudFallbackError) -> Void

  private struct State {
    var continuation: CheckedContinuation<Response, any Error>?
    var task: URLSessionDataTask?
    var status = 0
    var headers: [String: String] = [:]
    var body = Data()
    var failure: (any Error)?
    var isCancelled = false
  }

  // The state is only touched under this mutex; URLSession calls the delegate on its own queue,
  // and cancellation arrives from the caller's task. That is what makes `@unchecked` safe.
  private let state = Mutex(State())
  private let limit: Int
  private let observer: BodyObserver?

  private init(limit: Int, observer: BodyObserver?) {
    self.limit = limit
    self.observer = observer
  }

  /// Performs `request`, reading at most `limit` body bytes, and returns the response.
  ///
  /// - Throws: `URLError` from the transport, ``CloudFallbackError`` from the size bound or the
  ///   observer, or `CancellationError` when the calling task is cancelled.
  static func perform(
    _ request: URLRequest, timeout: Double, limit: Int, observer: BodyObserver? = nil
  ) async throws -> Response {
    let transfer = HTTPTransfer(limit: limit, observer: observer)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request)
        let start = transfer.state.withLock { state -> Bool in
          if state.isCancelled { return false }
          state.continuation = continuation
          state.task = task
          return true
        }
        if start {
          task.resume()
        } else {
          continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      transfer.cancel()
    }
  }

  private func cancel() {
    let task = state.withLock { state -> URLSessionDataTask? in
      state.isCancelled = true
      if state.failure == nil { state.failure = CancellationError() }
      return state.task
    }
    task?.cancel()
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    if let http = response as? HTTPURLResponse {
      var headers: [String: String] = [:]
      for (key, value) in http.allHeaderFields {
        if let key = key as? String, let value = value as? String {
          headers[key.lowercased()] = value
        }
      }
      state.withLock {
        $0.status = http.statusCode
        $0.headers = headers
      }
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let (status, overflow) = state.withLock { state -> (Int, Bool) in
      guard state.failure == nil else { return (state.status, false) }
      if state.body.count + data.count > limit {
        state.failure = CloudFallbackError.replyTooLarge(bytes: limit)
        return (state.status, true)
      }
      state.body.append(data)
      return (state.status, false)
    }
    if overflow {
      dataTask.cancel()
      return
    }
    guard let observer, (200..<300).contains(status) else { return }
    do {
      try observer(data)
    } catch {
      state.withLock { if $0.failure == nil { $0.failure = error } }
      dataTask.cancel()
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let (continuation, result) = state.withLock {
      state -> (CheckedContinuation<Response, any Error>?, Result<Response, any Error>) in
      let continuation = state.continuation
      state.continuation = nil
      if let failure = state.failure { return (continuation, .failure(failure)) }
      if let error { return (continuation, .failure(error)) }
      return (
        continuation,
        .success(Response(status: state.status, headers: state.headers, body: state.body))
      )
    }
    continuation?.resume(with: result)
  }
}
