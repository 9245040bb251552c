//! Build script: records the target triple, so that `agentchess --version` can say which
//! platform a binary was built for (a WinBoard user with a cross-compiled .exe wants to know).

fn main() {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown target".to_string());
    println!("cargo:rustc-env=AGENTCHESS_TARGET={target}");
    println!("cargo:rerun-if-changed=src/build.rs");
}
