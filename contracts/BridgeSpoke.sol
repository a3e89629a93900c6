// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title BridgeSpoke
/// @notice One per chain. The intent bridge of the cross-chain swaps (extensions.md):
///         - on the source chain a user deposits (optionally after a swap through the swap
///           executor); the deposit is escrowed here;
///         - on the destination chain the service fills: the recipient is paid from this spoke's
///           own liquidity (the service's inventory, everything above the escrowed deposits);
///           a deposit is filled at most once (`filled`), and never after its fill deadline;
///         - back on the source chain the filled deposit repays the service (the escrow becomes
///           liquidity), or an unfilled one is refunded to its depositor after its deadline.
/// @dev    No caller is privileged. Fills, repayments and early refunds are authorised by an
///         EIP-712 signature of `filler`, a key that signs only these messages and never a
///         transaction, so the relay's keys (which sign any team's calldata) carry no power here
///         and anyone may send what the filler signed. Without the filler, a deposit is refundable
///         by anyone `refundGrace` seconds after its fill deadline (the service cannot hold it).
contract BridgeSpoke is Ownable, ReentrancyGuard, EIP712 {
    using SafeERC20 for IERC20;

    bytes32 public constant FILL_TYPEHASH = keccak256(
        "Fill(uint256 originChainId,bytes32 depositId,address outputToken,uint256 amount,address recipient,uint64 fillDeadline,uint256 minAmountOut,bytes32 executorDataHash)"
    );
    bytes32 public constant REPAY_TYPEHASH = keccak256("Repay(bytes32 depositId)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 depositId)");

    uint8 private constant OPEN = 1;
    uint8 private constant REPAID = 2;
    uint8 private constant REFUNDED = 3;

    struct DepositParams {
        address inputToken;
        uint256 inputAmount;
        uint256 destinationChainId;
        address outputToken;
        /// The least the recipient is paid on the destination chain (in outputToken units).
        uint256 outputAmount;
        address recipient;
        uint64 fillDeadline;
        /// The quote's id, echoed in Deposited for tracking.
        bytes32 ref;
    }

    struct Escrow {
        address depositor;
        address token;
        uint256 amount;
        uint64 fillDeadline;
        uint8 state;
    }

    /// @notice What the filler signs on the destination chain. With `executorData` empty the
    ///         recipient gets `amount` of `outputToken`; otherwise `amount` of `outputToken` (the
    ///         bridged asset) is swapped through the executor for the recipient, who must receive
    ///         at least `minAmountOut` of `swapTokenOut`.
    struct Fill {
        uint256 originChainId;
        bytes32 depositId;
        address outputToken;
        uint256 amount;
        address recipient;
        uint64 fillDeadline;
        uint256 minAmountOut;
        address swapTokenOut;
        bytes executorData;
    }

    address public filler;
    address public executor;
    uint256 public immutable refundGrace;
    uint256 public depositCount;
    mapping(bytes32 => Escrow) public escrows;
    /// @notice Escrowed deposits per token: not liquidity, never paid out by a fill.
    mapping(address => uint256) public escrowed;
    /// @notice keccak256(originChainId, depositId) => filled on this chain.
    mapping(bytes32 => bool) public filled;

    event FillerSet(address filler);
    event ExecutorSet(address executor);
    event Deposited(
        bytes32 indexed depositId,
        address indexed depositor,
        address inputToken,
        uint256 inputAmount,
        uint256 destinationChainId,
        address outputToken,
        uint256 outputAmount,
        address recipient,
        uint64 fillDeadline,
        bytes32 ref
    );
    event Filled(bytes32 indexed depositId, uint256 indexed originChainId, address outputToken, uint256 amount, address recipient, address relayer);
    event Repaid(bytes32 indexed depositId, address token, uint256 amount);
    event Refunded(bytes32 indexed depositId, address depositor, address token, uint256 amount);

    error NotFiller();
    error AlreadyFilled();
    error FillDeadlinePassed();
    error NotOpen();
    error DeadlineNotPassed();
    error InsufficientLiquidity(uint256 available, uint256 wanted);
    error InsufficientOutput(uint256 received, uint256 minAmountOut);
    error BadDeposit();
    error ExecutorNotSet();

    constructor(address owner_, address filler_, uint256 refundGrace_) Ownable(owner_) EIP712("BridgeSpoke", "1") {
        filler = filler_;
        refundGrace = refundGrace_;
        emit FillerSet(filler_);
    }

    function setFiller(address filler_) external onlyOwner {
        filler = filler_;
        emit FillerSet(filler_);
    }

    function setExecutor(address executor_) external onlyOwner {
        executor = executor_;
        emit ExecutorSet(executor_);
    }

    /// @notice The spoke's inventory of `token`: its balance less the escrowed deposits.
    function liquidity(address token) public view returns (uint256) {
        return IERC20(token).balanceOf(address(this)) - escrowed[token];
    }

    /// @notice The owner takes inventory out; escrowed deposits stay.
    function withdrawLiquidity(address token, uint256 amount, address to) external onlyOwner {
        uint256 available = liquidity(token);
        if (amount > available) revert InsufficientLiquidity(available, amount);
        IERC20(token).safeTransfer(to, amount);
    }

    // ---------------------------------------------------------------- source chain

    function deposit(DepositParams calldata p) external nonReentrant returns (bytes32 depositId) {
        IERC20(p.inputToken).safeTransferFrom(msg.sender, address(this), p.inputAmount);
        return _open(p, p.inputAmount);
    }

    /// @notice Swap `amountIn` of `tokenIn` (address(0): native, sent as value) through the
    ///         executor into `p.inputToken` for this spoke, then deposit what arrived; at least
    ///         `p.inputAmount` must arrive. `executorData` names this spoke as its receiver.
    function swapAndDeposit(DepositParams calldata p, address tokenIn, uint256 amountIn, bytes calldata executorData)
        external
        payable
        nonReentrant
        returns (bytes32 depositId)
    {
        if (executor == address(0)) revert ExecutorNotSet();
        uint256 before = IERC20(p.inputToken).balanceOf(address(this));
        if (tokenIn != address(0)) {
            IERC20(tokenIn).safeTransferFrom(msg.sender, address(this), amountIn);
            IERC20(tokenIn).forceApprove(executor, amountIn);
        }
        (bool ok, bytes memory ret) = executor.call{value: msg.value}(executorData);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        if (tokenIn != address(0)) IERC20(tokenIn).forceApprove(executor, 0);
        uint256 received = IERC20(p.inputToken).balanceOf(address(this)) - before;
        if (received < p.inputAmount) revert InsufficientOutput(received, p.inputAmount);
        return _open(p, received);
    }

    function _open(DepositParams calldata p, uint256 amount) private returns (bytes32 depositId) {
        if (amount == 0 || p.recipient == address(0) || p.destinationChainId == block.chainid || p.fillDeadline <= block.timestamp) revert BadDeposit();
        depositId = keccak256(abi.encode(block.chainid, address(this), depositCount++));
        escrows[depositId] = Escrow({depositor: msg.sender, token: p.inputToken, amount: amount, fillDeadline: p.fillDeadline, state: OPEN});
        escrowed[p.inputToken] += amount;
        emit Deposited(depositId, msg.sender, p.inputToken, amount, p.destinationChainId, p.outputToken, p.outputAmount, p.recipient, p.fillDeadline, p.ref);
    }

    /// @notice The filled deposit's escrow becomes the spoke's liquidity (the filler is repaid).
    function repay(bytes32 depositId, bytes calldata signature) external nonReentrant {
        _checkFiller(keccak256(abi.encode(REPAY_TYPEHASH, depositId)), signature);
        Escrow storage e = escrows[depositId];
        if (e.state != OPEN) revert NotOpen();
        e.state = REPAID;
        escrowed[e.token] -= e.amount;
        emit Repaid(depositId, e.token, e.amount);
    }

    /// @notice Back to the depositor: after the fill deadline with the filler's word that no fill
    ///         happened (fills are refused after the deadline), or by anyone `refundGrace` later.
    function refund(bytes32 depositId, bytes calldata signature) external nonReentrant {
        Escrow storage e = escrows[depositId];
        if (e.state != OPEN) revert NotOpen();
        if (signature.length == 0) {
            if (block.timestamp <= uint256(e.fillDeadline) + refundGrace) revert DeadlineNotPassed();
        } else {
            if (block.timestamp <= e.fillDeadline) revert DeadlineNotPassed();
            _checkFiller(keccak256(abi.encode(REFUND_TYPEHASH, depositId)), signature);
        }
        e.state = REFUNDED;
        escrowed[e.token] -= e.amount;
        IERC20(e.token).safeTransfer(e.depositor, e.amount);
        emit Refunded(depositId, e.depositor, e.token, e.amount);
    }

    // ---------------------------------------------------------------- destination chain

    function fillKey(uint256 originChainId, bytes32 depositId) public pure returns (bytes32) {
        return keccak256(abi.encode(originChainId, depositId));
    }

    function fillDigest(Fill calldata f) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    FILL_TYPEHASH,
                    f.originChainId,
                    f.depositId,
                    f.outputToken,
                    f.amount,
                    f.recipient,
                    f.fillDeadline,
                    f.minAmountOut,
                    keccak256(abi.encode(f.swapTokenOut, keccak256(f.executorData)))
                )
            )
        );
    }

    function fill(Fill calldata f, bytes calldata signature) external nonReentrant {
        if (ECDSA.recover(fillDigest(f), signature) != filler) revert NotFiller();
        if (block.timestamp > f.fillDeadline) revert FillDeadlinePassed();
        bytes32 key = fillKey(f.originChainId, f.depositId);
        if (filled[key]) revert AlreadyFilled();
        filled[key] = true;
        uint256 available = liquidity(f.outputToken);
        if (f.amount > available) revert InsufficientLiquidity(available, f.amount);
        if (f.executorData.length == 0) {
            IERC20(f.outputToken).safeTransfer(f.recipient, f.amount);
        } else {
            if (executor == address(0)) revert ExecutorNotSet();
            uint256 before = _balanceOf(f.swapTokenOut, f.recipient);
            IERC20(f.outputToken).forceApprove(executor, f.amount);
            (bool ok, bytes memory ret) = executor.call(f.executorData);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
            IERC20(f.outputToken).forceApprove(executor, 0);
            uint256 received = _balanceOf(f.swapTokenOut, f.recipient) - before;
            if (received < f.minAmountOut) revert InsufficientOutput(received, f.minAmountOut);
        }
        emit Filled(f.depositId, f.originChainId, f.outputToken, f.amount, f.recipient, msg.sender);
    }

    function _checkFiller(bytes32 structHash, bytes calldata signature) private view {
        if (ECDSA.recover(_hashTypedDataV4(structHash), signature) != filler) revert NotFiller();
    }

    function _balanceOf(address token, address account) private view returns (uint256) {
        return token == address(0) ? account.balance : IERC20(token).balanceOf(account);
    }

}
