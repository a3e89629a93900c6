// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title SettlementDelegate
/// @notice EIP-7702 delegate for vault settlements: an EOA delegates to this code and anyone (the
///         relay) may then run a batch of calls from the EOA, but only a batch the EOA itself signed
///         as EIP-712 `Execute(Call[] calls,uint256 nonce,uint256 deadline)` with the EOA as
///         verifyingContract. Nonces are unordered (any unused value), so several quotes can be
///         outstanding at once and each is usable exactly once.
contract SettlementDelegate {
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("SettlementDelegate");
    bytes32 private constant VERSION_HASH = keccak256("1");
    bytes32 public constant CALL_TYPEHASH = keccak256("Call(address target,uint256 value,bytes data)");
    bytes32 public constant EXECUTE_TYPEHASH =
        keccak256("Execute(Call[] calls,uint256 nonce,uint256 deadline)Call(address target,uint256 value,bytes data)");

    /// @custom:storage-location erc7201:relay.settlement-delegate.nonces
    struct NonceStorage {
        mapping(uint256 => bool) used;
    }

    // The code runs in the EOA's storage, which other delegates the EOA used before may have
    // written to: an ERC-7201 namespaced slot keeps our nonces clear of their layouts.
    // keccak256(abi.encode(uint256(keccak256("relay.settlement-delegate.nonces")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant NONCE_STORAGE = 0xc10db9f63a3fbbe9f4fcd17d30bcd42f6bd7ce9dc272ac36927a34aed5c2fb00;

    error DeadlineExpired(uint256 deadline);
    error NonceAlreadyUsed(uint256 nonce);
    error InvalidSignature();
    error CallFailed(uint256 index, bytes reason);

    event Executed(uint256 indexed nonce, uint256 calls);

    function execute(Call[] calldata calls, uint256 nonce, uint256 deadline, bytes calldata signature) external payable {
        if (block.timestamp > deadline) revert DeadlineExpired(deadline);
        NonceStorage storage s = _nonces();
        if (s.used[nonce]) revert NonceAlreadyUsed(nonce);
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecover(executeDigest(calls, nonce, deadline), signature);
        if (err != ECDSA.RecoverError.NoError || signer != address(this)) revert InvalidSignature();
        s.used[nonce] = true;
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory reason) = calls[i].target.call{value: calls[i].value}(calls[i].data);
            if (!ok) revert CallFailed(i, reason);
        }
        emit Executed(nonce, calls.length);
    }

    function nonceUsed(uint256 nonce) external view returns (bool) {
        return _nonces().used[nonce];
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    function executeDigest(Call[] calldata calls, uint256 nonce, uint256 deadline) public view returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            hashes[i] = keccak256(abi.encode(CALL_TYPEHASH, calls[i].target, calls[i].value, keccak256(calls[i].data)));
        }
        bytes32 structHash = keccak256(abi.encode(EXECUTE_TYPEHASH, keccak256(abi.encodePacked(hashes)), nonce, deadline));
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    receive() external payable {}

    function _nonces() private pure returns (NonceStorage storage s) {
        assembly {
            s.slot := NONCE_STORAGE
        }
    }
}
