import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `path` with `arguments`, output discarded, and waits for it; returns its exit status, or
/// nil when it could not be started or did not exit normally.
///
/// Spawns and reaps the child directly: Foundation's `Process.waitUntilExit` polls a run loop and
/// adds tens of milliseconds on Linux, more than the start-up being measured.
func launchAndWait(_ path: String, _ arguments: [String]) -> Int32? {
  #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
  #else
    var actions = posix_spawn_file_actions_t()
  #endif
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv = ([path] + arguments).map { strdup($0) } + [nil]
  let environment =
    ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + environment { free(pointer) }
  }
  var pid = pid_t()
  guard posix_spawn(&pid, path, &actions, nil, argv, environment) == 0 else { return nil }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 {
    guard errno == EINTR else { return nil }
  }
  // Exited normally (no signal): the low seven bits are zero and the code sits in the next byte.
  guard status & 0x7F == 0 else { return nil }
  return (status >> 8) & 0xFF
}
